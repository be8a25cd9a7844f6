import { pgGoalDatabaseProblem } from "@armory/goal-store-pg"
import type { GoalStoreSelection } from "@armory/host"
import { Config, Console, Effect, Option, Redacted } from "effect"
import { Flag } from "effect/cli"
import { invalidUsage, type UsageError } from "./CommandFailed.js"

/** The flags that choose the store, shared by `armory goal …` and `armory serve`. */
export const goalStoreFlags = {
  store: Flag.Literals("store", ["file", "pg"]).pipe(
    Flag.withDefault("file" as const),
    Flag.withDescription("where goals are kept: file (a directory, the default) or pg (a shared PostgreSQL database)")
  ),
  // No config fallback here: whether the URL came from the arguments decides the password warning.
  databaseUrl: Flag.String("database-url").pipe(
    Flag.optional,
    Flag.withDescription(
      "with --store pg: postgres://user@host:port/database (else ARMORY_GOALS_DATABASE_URL; put a URL with a password there, not in the arguments)"
    )
  ),
  databaseSchema: Flag.String("database-schema").pipe(
    Flag.withFallbackConfig(Config.String("ARMORY_GOALS_DATABASE_SCHEMA")),
    Flag.optional,
    Flag.withDescription("with --store pg: the schema holding the goal tables (else ARMORY_GOALS_DATABASE_SCHEMA, default armory_goals)")
  )
}

/** Whether a URL carries a password, in its user part or as a `password` parameter. */
const carriesPassword = (url: string): boolean => {
  try {
    const parsed = new URL(url)
    return parsed.password !== "" || parsed.searchParams.has("password")
  } catch {
    return false
  }
}

/**
 * The selection the flags name. `--store pg` without a database URL, and flags of the other store
 * (`--root`/`--goals-root` with pg, `--database-url` with file), are invalid usage. A password in
 * `--database-url` is warned about: every user of the machine can read process arguments.
 */
export const goalStoreSelection = (flags: {
  readonly store: "file" | "pg"
  readonly databaseUrl: Option.Option<string>
  readonly databaseSchema: Option.Option<string>
  readonly root: string | undefined
}): Effect.Effect<GoalStoreSelection, UsageError> =>
  Effect.gen(function* () {
    if (flags.store === "file") {
      if (Option.isSome(flags.databaseUrl)) return yield* invalidUsage("--database-url needs --store pg")
      return { store: "file", root: flags.root }
    }
    if (flags.root !== undefined) {
      return yield* invalidUsage("--store pg keeps goals in the database; the goals directory flag is for --store file")
    }
    if (Option.isSome(flags.databaseUrl) && carriesPassword(flags.databaseUrl.value)) {
      yield* Console.error("warning: --database-url carries a password that other users can read in the process list; set ARMORY_GOALS_DATABASE_URL instead")
    }
    const fromEnvironment = yield* Config.option(Config.String("ARMORY_GOALS_DATABASE_URL")).pipe(
      Effect.mapError((error) => invalidUsage(`ARMORY_GOALS_DATABASE_URL: ${error.message}`))
    )
    const url = Option.orElse(flags.databaseUrl, () => Option.filter(fromEnvironment, (value) => value !== ""))
    if (Option.isNone(url)) return yield* invalidUsage("--store pg needs --database-url or ARMORY_GOALS_DATABASE_URL")
    const schema = Option.getOrUndefined(flags.databaseSchema)
    const problem = pgGoalDatabaseProblem({ databaseUrl: url.value, schema })
    if (problem !== undefined) {
      const source = Option.isSome(flags.databaseUrl) ? "--database-url" : "ARMORY_GOALS_DATABASE_URL"
      return yield* invalidUsage(`${problem.option === "schema" ? "--database-schema" : source}: ${problem.reason}`)
    }
    return { store: "pg", databaseUrl: Redacted.make(url.value), schema }
  })
