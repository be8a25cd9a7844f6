import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Effect, Option, Tracer } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { collectingChannel, makeHost } from "../src/index.js"

const made: Array<string> = []
afterEach(() => {
  for (const directory of made.splice(0)) rmSync(directory, { recursive: true, force: true })
})

/** Runs `code` in code mode over a host with a file goal store, recording every span started meanwhile. */
const runTraced = (code: string) => {
  const root = mkdtempSync(join(tmpdir(), "armory-host-goal-tools-"))
  made.push(root)
  const spans: Array<Tracer.NativeSpan> = []
  const tracer = Tracer.make({
    span(options) {
      const span = new Tracer.NativeSpan(options)
      spans.push(span)
      return span
    }
  })
  const run = Effect.gen(function* () {
    const host = yield* makeHost({ skillSources: [], catalog: { watch: false }, goals: { store: "file", root: join(root, "goals") } })
    return yield* host.execute(code, { channel: collectingChannel("test"), sessionId: "traced" }).pipe(Effect.withSpan("the caller's turn"))
  }).pipe(Effect.scoped, Effect.provide(NodeServices.layer), Effect.provideService(Tracer.Tracer, tracer))
  return Effect.runPromise(run).then((result) => ({ result, spans }))
}

/** The names of a span's ancestors, nearest first. */
const ancestry = (span: Tracer.NativeSpan): ReadonlyArray<string> => {
  const names: Array<string> = []
  let parent = Option.getOrUndefined(span.parent)
  while (parent !== undefined && parent._tag === "Span") {
    names.push(parent.name)
    parent = Option.getOrUndefined(parent.parent)
  }
  return names
}

describe("the goals namespace of code mode", () => {
  it("runs each call in the fiber of the execution that made it: the store's spans sit under the caller's", async () => {
    const { result, spans } = await runTraced(`
      await goals.set({ objective: "ship traced" })
      await goals.checkpoint({ summary: "started" })
      return (await goals.status()).goal.checkpoints.length`)
    expect(result).toMatchObject({ status: "completed", result: 1 })
    const storeSpans = spans.filter((span) => span.name.startsWith("GoalStore."))
    expect(storeSpans.map((span) => span.name)).toEqual(["GoalStore.set", "GoalStore.checkpoint", "GoalStore.status"])
    for (const span of storeSpans) expect(ancestry(span)).toContain("the caller's turn")
  })

  it("passes the store's refusals to the guest typed", async () => {
    const { result } = await runTraced(`
      await goals.set({ objective: "ship gated", criteria: [{ scenario: "a user logs in", qaChannel: "browser", testRef: "e2e/login" }] })
      const refusal = await goals.complete({}).catch((error) => error)
      const blank = await goals.checkpoint({ summary: " " }).catch((error) => error._tag)
      return { tag: refusal._tag, unmet: refusal.unmet.length, blank }`)
    expect(result).toMatchObject({ status: "completed", result: { tag: "GateRefused", unmet: 1, blank: "ToolInputError" } })
  })
})
