import { DomainUnavailableError, type Page, pageTools } from "@armory/browser-runtime"
import { assertValidGlobals, type ToolTree } from "@armory/codemode"
import {
  type GoalMutationName,
  type GoalStoreClient,
  type GoalStoreClientMutations,
  goalTools,
  openGoalStore,
  sessionPaths
} from "@armory/goal-store"
import { mutationMethods } from "@armory/goal-store/backend"
import { arm } from "@armory/skill-arming"
import { load } from "@armory/skill-loader"
import { type Context, Effect, Result, Schema } from "effect"
import type { FileSystem, Path } from "effect"
import { invalidUsage, type UsageError } from "./CommandFailed.js"
import { skillSources } from "./SkillSources.js"

/** The host's own domain objects, bound as globals of the same name. */
export const DOMAIN_GLOBALS = ["channel", "page"] as const

/** Every global `armory exec` can bind; `--globals` picks from these. */
export const EXEC_GLOBALS = ["skills", "goals", ...DOMAIN_GLOBALS] as const

/**
 * A goal session opened on its first call: code that never touches `goals` (and the catalog
 * preview) reads no goal state, so a store needing repair (or a database that is down) fails only
 * the calls that use it. A failed open is not remembered, so a later call (after a repair) retries.
 */
export const lazyGoalSession = (
  identity: { readonly sessionId: string; readonly directory: string },
  openSession: () => Promise<GoalStoreClient>
): GoalStoreClient => {
  let opening: Promise<GoalStoreClient> | undefined
  const open = (): Promise<GoalStoreClient> =>
    (opening ??= openSession().catch((error: unknown) => {
      opening = undefined
      throw error
    }))
  const mutations = mutationMethods<GoalStoreClientMutations>(
    <N extends GoalMutationName>(name: N) =>
      ((input?: unknown) => open().then((store) => (store[name] as (input?: unknown) => Promise<unknown>)(input))) as GoalStoreClientMutations[N]
  )
  return {
    ...mutations,
    sessionId: identity.sessionId,
    directory: identity.directory,
    status: () => open().then((store) => store.status()),
    sessions: () => open().then((store) => store.sessions()),
    snapshot: () => open().then((store) => store.snapshot())
  }
}

/** The file store's session, opened lazily; an unsafe session id is refused up front, before any code runs. */
export const lazyGoalStore = (options: { readonly root?: string | undefined; readonly sessionId?: string | undefined }) =>
  Result.map(sessionPaths(options), (paths) => lazyGoalSession(paths, () => openGoalStore(options)))

/** Where `channel.send` goes: the conversation the code reports to. */
export interface Channel {
  readonly id: string
  readonly send: (message: { readonly text: string }) => Promise<void>
}

/** The channel of the catalog preview: there is no conversation, so it refuses to post. */
export const unavailableChannel: Channel = {
  id: "preview",
  send: () =>
    Promise.reject(new DomainUnavailableError({ object: "channel", missing: "the catalog preview has no conversation to post to" }))
}

const channelTools = (channel: Channel): ToolTree => ({
  id: {
    description: "The id of the conversation this code reports to.",
    input: Schema.Void,
    output: Schema.String,
    run: async () => channel.id
  },
  send: {
    description: "Posts a message to the conversation.",
    input: Schema.Struct({ text: Schema.String }),
    output: Schema.Null,
    run: async (message: { readonly text: string }) => {
      await channel.send(message)
      return null
    }
  }
})

const SkillSummary = Schema.Struct({ name: Schema.String, description: Schema.String })

const skillTools = (dirs: ReadonlyArray<string>, services: Context.Context<FileSystem.FileSystem | Path.Path>): ToolTree => {
  const loaded = load(skillSources(dirs)).pipe(Effect.provideContext(services))
  return {
    list: {
      description: "Lists the skills that loaded from the skill roots.",
      input: Schema.Void,
      output: Schema.Array(SkillSummary),
      run: () => loaded.pipe(Effect.map((report) => report.skills.map(({ name, description }) => ({ name, description }))))
    },
    arm: {
      description: "Names the skills that arm for a prompt (and the page URL, when given).",
      input: Schema.Struct({ prompt: Schema.String, url: Schema.optional(Schema.String) }),
      output: Schema.Array(Schema.String),
      run: ({ prompt, url }: { readonly prompt: string; readonly url?: string | undefined }) =>
        loaded.pipe(Effect.map((report) => arm({ skills: report.skills, prompt, url }).map((armed) => armed.name)))
    }
  }
}

/**
 * The tool tree of `armory exec`: the domain namespaces come last so that no other namespace can
 * take their names.
 */
export const execTools = Effect.fn("execTools")(function* (options: {
  readonly channel: Channel
  readonly page: Page
  readonly goals: GoalStoreClient
  readonly dirs: ReadonlyArray<string>
}) {
  const services = yield* Effect.context<FileSystem.FileSystem | Path.Path>()
  const tree: ToolTree = {
    skills: skillTools(options.dirs, services),
    goals: goalTools(options.goals),
    channel: channelTools(options.channel),
    page: pageTools(options.page)
  }
  return tree
})

/**
 * `--globals a,b` (repeatable): the globals to bind, all of them by default, checked against the
 * tool tree as code mode would check them; a name it refuses is a usage error.
 */
export const selectedGlobals = (tools: ToolTree, values: ReadonlyArray<string>): Effect.Effect<ReadonlyArray<string>, UsageError> => {
  const names = values.flatMap((value) => value.split(",")).map((name) => name.trim()).filter((name) => name !== "")
  const globals = names.length === 0 ? EXEC_GLOBALS : names
  return Effect.try({
    try: () => {
      assertValidGlobals(tools, globals)
      return globals
    },
    catch: (error) => invalidUsage(`--globals: ${error instanceof Error ? error.message : String(error)}`)
  })
}
