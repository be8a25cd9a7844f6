import { HOST_GLOBALS, type HostShape, type LoadReport } from "@armory/host"
import { Context, Effect, Stream } from "effect"
import { McpSchema, McpServer } from "effect/ai"
import { ListChanges } from "./internal/ListChanges.js"
import { CODEMODE_INSTRUCTIONS_URI, SNAPSHOT_URI } from "./McpTools.js"

/** The resource of a loaded skill: its SKILL.md body. */
export const skillUri = (name: string): string => `skill://${name}`

/** The URI template of every skill's resource, whose `name` completes. */
export const SKILL_URI_TEMPLATE = "skill://{name}"

/** The most values one completion answer carries (the protocol's own limit). */
const MAX_COMPLETION_VALUES = 100

/** The loaded skill names a partial name completes to: those starting with it, ignoring case, in order, at most 100, with the full count. */
export const skillNameCompletion = (names: ReadonlyArray<string>, input: string): McpSchema.CompleteResult => {
  const prefix = input.toLowerCase()
  const matching = names.filter((name) => name.toLowerCase().startsWith(prefix)).toSorted()
  const values = matching.slice(0, MAX_COMPLETION_VALUES)
  return McpSchema.CompleteResult.make({ completion: { values, total: matching.length, hasMore: matching.length > values.length } })
}

const text = (uri: string, mimeType: string, body: string) =>
  McpSchema.ReadResourceResult.make({ contents: [McpSchema.TextResourceContents.make({ uri, mimeType, text: body })] })

interface LiveSkill {
  readonly description: string
  readonly location: string
  readonly body: string
}

/**
 * Registers the snapshot resource and one resource per loaded skill, and keeps the skills current:
 * a skill that appears is added, one whose root lost it stops being listed or read, and every change
 * of the catalog is announced with `notifications/resources/list_changed`.
 */
export const registerResources = Effect.fn("registerResources")(function* (
  host: HostShape,
  sessionOf: Effect.Effect<string | undefined>,
  options: { readonly pageTools: boolean }
) {
  const server = yield* McpServer.McpServer
  const listChanges = yield* ListChanges
  // Read when it is asked for, so it follows the MCP servers' tools as they change.
  yield* server.addResource({
    resource: new McpSchema.Resource({
      uri: CODEMODE_INSTRUCTIONS_URI,
      name: "codemode-instructions",
      title: "Code mode declarations",
      description: "The TypeScript declarations of every global `execute` gives the code, with each input and answer, and the sandbox's rules.",
      mimeType: "text/markdown"
    }),
    annotations: Context.empty(),
    handle: Effect.sync(() =>
      text(CODEMODE_INSTRUCTIONS_URI, "text/markdown", host.instructions(options.pageTools ? undefined : HOST_GLOBALS.filter((name) => name !== "page")))
    )
  })
  yield* server.addResource({
    resource: new McpSchema.Resource({
      uri: SNAPSHOT_URI,
      name: "goal-snapshot",
      title: "Goal snapshot",
      description: "The short summary of the session's goal (objective, open criteria, the gate), empty when no goal is open.",
      mimeType: "text/plain"
    }),
    annotations: Context.empty(),
    handle: Effect.flatMap(sessionOf, (sessionId) => host.goals.use(sessionId, (store) => store.snapshot())).pipe(
      Effect.map((snapshot) => text(SNAPSHOT_URI, "text/plain", snapshot)),
      Effect.mapError((error) => new McpSchema.InternalError({ message: error.message }))
    )
  })

  const live = new Map<string, LiveSkill>()
  yield* server.addResourceTemplate({
    template: new McpSchema.ResourceTemplate({
      uriTemplate: SKILL_URI_TEMPLATE,
      name: "skill",
      title: "Skill by name",
      description: "A loaded skill's SKILL.md body; the name completes to the loaded skills.",
      mimeType: "text/markdown"
    }),
    annotations: Context.empty(),
    // effect/ai's router form of `skill://{name}`: the scheme's colon doubled, the parameter by position.
    routerPath: "skill:://:0",
    completions: { name: (input) => Effect.sync(() => skillNameCompletion([...live.keys()], input)) },
    handle: (uri, [name = ""]) => {
      const current = live.get(name)
      return current === undefined
        ? Effect.fail(new McpSchema.InvalidParams({ message: `no skill named ${JSON.stringify(name.slice(0, 200))} is loaded` }))
        : Effect.succeed(text(uri, "text/markdown", current.body))
    }
  })
  const register = (name: string, skill: LiveSkill) =>
    server.addResource({
      resource: new McpSchema.Resource({ uri: skillUri(name), name, description: skill.description, mimeType: "text/markdown" }),
      // A skill its root lost stays registered but is neither listed nor read.
      annotations: Context.make(McpSchema.EnabledWhen, () => live.has(name)),
      handle: Effect.suspend(() => {
        const current = live.get(name)
        return current === undefined
          ? Effect.fail(new McpSchema.InternalError({ message: `the skill ${name} is no longer loaded` }))
          : Effect.succeed(text(skillUri(name), "text/markdown", current.body))
      })
    })
  const sync = (report: LoadReport) =>
    Effect.gen(function* () {
      const next = new Map(report.skills.map((skill) => [skill.name, { description: skill.description, location: skill.location, body: skill.body }]))
      const changed =
        next.size !== live.size ||
        [...next].some(([name, skill]) => {
          const before = live.get(name)
          return before === undefined || before.description !== skill.description || before.location !== skill.location || before.body !== skill.body
        })
      if (!changed) return
      const added = [...next].filter(([name, skill]) => live.get(name)?.description !== skill.description)
      const updated = [...next].filter(([name, skill]) => {
        const before = live.get(name)
        return before !== undefined && (before.description !== skill.description || before.body !== skill.body)
      })
      live.clear()
      for (const [name, skill] of next) live.set(name, skill)
      for (const [name, skill] of added) yield* register(name, skill)
      yield* server.notifications["notifications/resources/list_changed"]({})
      for (const [name] of updated) yield* server.notifications["notifications/resources/updated"]({ uri: skillUri(name) })
      yield* listChanges.publish("notifications/resources/list_changed")
    })
  yield* Effect.flatMap(host.skills.report, sync)
  yield* host.skills.changes.pipe(Stream.runForEach(sync), Effect.forkScoped)
})
