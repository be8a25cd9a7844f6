import {
  exportFileLedger,
  type GoalStoreError,
  type GoalStoreShape,
  type LedgerEvent,
  makeFileGoalStore
} from "@armory/goal-store"
import { exportPgLedger, makePgGoalDatabase, makePgGoalStore, PgGoalDatabase, type PgGoalDatabaseShape } from "@armory/goal-store-pg"
import { Config, Effect, Option, Redacted, type Scope } from "effect"
import { Flag } from "effect/cli"
import { InvalidUsage } from "./CommandFailed.js"

/** Where goals are kept: files under a root (the default), or a shared PostgreSQL database. */
export type GoalStoreSelection =
  | { readonly store: "file"; readonly root: string | undefined }
  | { readonly store: "pg"; readonly databaseUrl: Redacted.Redacted<string>; readonly schema: string | undefined }

/** The flags that choose the store, shared by `armory goal …` and `armory serve`. */
export const goalStoreFlags = {
  store: Flag.Literals("store", ["file", "pg"]).pipe(
    Flag.withDefault("file" as const),
    Flag.withDescription("where goals are kept: file (a directory, the default) or pg (a shared PostgreSQL database)")
  ),
  databaseUrl: Flag.String("database-url").pipe(
    Flag.withFallbackConfig(Config.String("ARMORY_GOALS_DATABASE_URL")),
    Flag.optional,
    Flag.withDescription("with --store pg: postgres://user:password@host:port/database (else ARMORY_GOALS_DATABASE_URL)")
  ),
  databaseSchema: Flag.String("database-schema").pipe(
    Flag.withFallbackConfig(Config.String("ARMORY_GOALS_DATABASE_SCHEMA")),
    Flag.optional,
    Flag.withDescription("with --store pg: the schema holding the goal tables (else ARMORY_GOALS_DATABASE_SCHEMA, default armory_goals)")
  )
}

/** The selection the flags name; `--store pg` without a database URL is invalid usage. */
export const goalStoreSelection = (flags: {
  readonly store: "file" | "pg"
  readonly databaseUrl: Option.Option<string>
  readonly databaseSchema: Option.Option<string>
  readonly root: string | undefined
}): Effect.Effect<GoalStoreSelection, InvalidUsage> => {
  if (flags.store === "file") return Effect.succeed({ store: "file", root: flags.root })
  return Option.match(flags.databaseUrl, {
    onNone: () => Effect.fail(new InvalidUsage({ message: "--store pg needs --database-url or ARMORY_GOALS_DATABASE_URL" })),
    onSome: (url) =>
      Effect.succeed({ store: "pg" as const, databaseUrl: Redacted.make(url), schema: Option.getOrUndefined(flags.databaseSchema) })
  })
}

/** Opens the selected database (pool and migrations); it closes with the scope. */
export const openPgDatabase = (selection: Extract<GoalStoreSelection, { store: "pg" }>) =>
  makePgGoalDatabase({ databaseUrl: selection.databaseUrl, schema: selection.schema })

/** A factory of sessions over one open database: a server shares its pool across requests. */
export const pgSessions =
  (database: PgGoalDatabaseShape) =>
  (sessionId: string | undefined): Effect.Effect<GoalStoreShape, GoalStoreError> =>
    makePgGoalStore({ sessionId }).pipe(Effect.provideService(PgGoalDatabase, database))

/** Opens one session of the selected store for one command. */
export const openGoalSession = (
  selection: GoalStoreSelection,
  sessionId: string | undefined
): Effect.Effect<GoalStoreShape, GoalStoreError, Scope.Scope> =>
  selection.store === "file"
    ? makeFileGoalStore({ root: selection.root, sessionId })
    : Effect.flatMap(openPgDatabase(selection), (database) => pgSessions(database)(sessionId))

/** A session's committed ledger, from either store. */
export const exportSession = (
  selection: GoalStoreSelection,
  sessionId: string | undefined
): Effect.Effect<ReadonlyArray<LedgerEvent>, GoalStoreError, Scope.Scope> =>
  selection.store === "file"
    ? exportFileLedger({ root: selection.root, sessionId })
    : Effect.flatMap(openPgDatabase(selection), (database) =>
        exportPgLedger({ sessionId }).pipe(Effect.provideService(PgGoalDatabase, database))
      )
