import { Effect, Logger, Schema } from "effect"
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
})
