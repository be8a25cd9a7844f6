import { HOST_GLOBALS, type HostShape, type LoadReport } from "@armory/host"
import { Context, Effect, Stream } from "effect"
import { McpSchema, McpServer } from "effect/ai"
import { ListChanges } from "./internal/ListChanges.js"
import { CODEMODE_INSTRUCTIONS_URI } from "./McpTools.js"

/** The goal snapshot a host injects each turn, as a resource. */
export const SNAPSHOT_URI = "armory://goals/snapshot"

/** The resource of a loaded skill: its SKILL.md body. */
export const skillUri = (name: string): string => `skill://${name}`

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
      live.clear()
      for (const [name, skill] of next) live.set(name, skill)
      for (const [name, skill] of added) yield* register(name, skill)
      yield* server.notifications["notifications/resources/list_changed"]({})
      yield* listChanges.publish("notifications/resources/list_changed")
    })
  yield* Effect.flatMap(host.skills.report, sync)
  yield* host.skills.changes.pipe(Stream.runForEach(sync), Effect.forkScoped)
})
