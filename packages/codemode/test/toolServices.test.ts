import { Effect, Fiber, Logger, References, Schema } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { executeEffect, Sandboxes, type Tool } from "../src/index.js"
import { makeSandboxPool } from "../src/internal/SandboxPool.js"

const pool = makeSandboxPool({ maxWorkers: 1 })
afterAll(() => pool.close())

/** An Effect tool that logs, and answers the name of the span it runs under. */
const traced: Tool<void, string> = {
  description: "logs and names its parent span",
  input: Schema.Void,
  output: Schema.String,
  run: () =>
    Effect.logInfo("inside the tool").pipe(
      Effect.andThen(Effect.currentParentSpan),
      Effect.map((span) => (span._tag === "Span" ? span.name : "external")),
      Effect.orElseSucceed(() => "none")
    )
}

describe("an Effect tool under executeEffect", () => {
  it("runs with the caller's services: its logs reach the caller's logger, its span sits under the caller's", async () => {
    const lines: Array<string> = []
    const logger = Logger.layer([Logger.make(({ message }) => void lines.push((Array.isArray(message) ? message : [message]).map(String).join(" ")))])
    const result = await Effect.runPromise(
      executeEffect("return await tools.traced()", { tools: { traced } }).pipe(
        Effect.withSpan("the caller's span"),
        Effect.provideService(Sandboxes, { pool }),
        Effect.provide(logger)
      )
    )
    expect(result).toMatchObject({ status: "completed", result: "the caller's span" })
    expect(lines).toContain("inside the tool")
  })

  it("logs with the caller's annotations and at the caller's level", async () => {
    const seen: Array<{ message: string; request: unknown }> = []
    const logger = Logger.layer([
      Logger.make(({ message, fiber }) =>
        void seen.push({ message: (Array.isArray(message) ? message : [message]).map(String).join(" "), request: fiber.getRef(References.CurrentLogAnnotations)["request"] })
      )
    ])
    const chatty: Tool<void, null> = {
      description: "logs at two levels",
      input: Schema.Void,
      run: () => Effect.logDebug("debug detail").pipe(Effect.andThen(Effect.logWarning("a warning")), Effect.as(null))
    }
    await Effect.runPromise(
      executeEffect("return await tools.chatty()", { tools: { chatty } }).pipe(
        Effect.annotateLogs("request", "r-42"),
        Effect.provideService(References.MinimumLogLevel, "Warn"),
        Effect.provideService(Sandboxes, { pool }),
        Effect.provide(logger)
      )
    )
    expect(seen).toEqual([{ message: "a warning", request: "r-42" }])
  })

  it("is interrupted when the caller's fiber is, its finalizers run", async () => {
    const events: Array<string> = []
    let started!: () => void
    const running = new Promise<void>((resolve) => (started = resolve))
    const waits: Tool<void, null> = {
      description: "waits until interrupted",
      input: Schema.Void,
      run: () =>
        Effect.sync(() => started()).pipe(
          Effect.andThen(Effect.never),
          Effect.onInterrupt(() => Effect.sync(() => void events.push("tool interrupted")))
        )
    }
    const fiber = Effect.runFork(executeEffect("return await tools.waits()", { tools: { waits }, timeoutMs: 60_000 }).pipe(Effect.provideService(Sandboxes, { pool })))
    await running
    await Effect.runPromise(Fiber.interrupt(fiber))
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(events).toEqual(["tool interrupted"])
  })
})
