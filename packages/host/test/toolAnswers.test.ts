import { Effect, Logger, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { answerToolCall } from "../src/index.js"

/** A typed error wrapping a third-party one, whose every read but its fields throws. */
class UpstreamFailed extends Schema.TaggedError<UpstreamFailed>()("UpstreamFailed", { service: Schema.String }) {
  override get message(): string {
    throw new Error("the wrapped client's message getter throws")
  }
  override get stack(): string {
    throw new Error("the stack getter throws")
  }
  override toString(): string {
    throw new Error("toString throws")
  }
}

const hostileAnswer = new Proxy(
  {},
  {
    get: () => {
      throw new Error("every read throws")
    },
    ownKeys: () => {
      throw new Error("listing throws")
    }
  }
)

describe("answerToolCall on a tool's hostile values", () => {
  it("answers an internal error, logged as text, when the tool's error or answer throws as it is read", async () => {
    const logged: Array<string> = []
    const logger = Logger.layer([Logger.make(({ message }) => void logged.push((Array.isArray(message) ? message : [message]).map(String).join(" ")))])
    const failing = { description: "fails upstream", input: Schema.Void, run: async () => Promise.reject(new UpstreamFailed({ service: "billing" })) }
    const answering = { description: "answers a hostile value", input: Schema.Void, run: async () => hostileAnswer }
    for (const tool of [failing, answering]) {
      const answer = await Effect.runPromise(answerToolCall(tool, undefined).pipe(Effect.provide(logger)))
      expect(answer).toMatchObject({ ok: false, error: { _tag: "InternalToolError", message: expect.stringMatching(/^internal tool error \[[0-9a-f]{8}\]$/) } })
    }
    expect(logged).toHaveLength(2)
    expect(logged[0]).toMatch(/^internal tool error \[[0-9a-f]{8}\] UpstreamFailed/)
  })
})
