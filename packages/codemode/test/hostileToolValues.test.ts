import { Effect, Logger, Schema } from "effect"
import fc from "fast-check"
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest"
import { describeForeign, executeEffect, publicToolError, Sandboxes, type Tool, type ToolTree } from "../src/index.js"
import { makeSandboxPool } from "../src/internal/SandboxPool.js"
import { runInChild } from "./support/child.js"
import { NotFound, tool } from "./support/tools.js"

/** The accessors a host may read of a tool's error or answer. */
const ACCESSORS = ["_tag", "message", "name", "stack", "constructor", "cause", "toJSON", "toString", "valueOf", "then", Symbol.toPrimitive] as const
type Accessor = (typeof ACCESSORS)[number]

interface Hostility {
  readonly base: "error" | "tagged" | "object"
  readonly accessors: ReadonlyArray<Accessor>
  /** Throw from the accessor, or recurse without end (a stack overflow). */
  readonly how: "throw" | "recurse"
  /** Wrap the value in a Proxy whose every trap does the same. */
  readonly proxy: boolean
}

const misbehave = (how: Hostility["how"]): never => {
  if (how === "throw") throw new Error("an accessor that throws")
  const recurse = (depth: number): number => recurse(depth + 1) + 1
  return recurse(0) as never
}

/** A value whose chosen accessors throw or recurse when the host reads them. */
const hostileValue = ({ base, accessors, how, proxy }: Hostility): object => {
  const value: object = base === "error" ? new Error("plain") : base === "tagged" ? new NotFound({ id: "x", attempts: 1 }) : { plain: true }
  for (const accessor of accessors) Object.defineProperty(value, accessor, { configurable: true, get: () => misbehave(how) })
  if (!proxy) return value
  const trap = () => misbehave(how)
  return new Proxy(value, { get: trap, getPrototypeOf: trap, has: trap, ownKeys: trap, getOwnPropertyDescriptor: trap })
}

const hostility = fc.record({
  base: fc.constantFrom("error" as const, "tagged" as const, "object" as const),
  accessors: fc.subarray([...ACCESSORS]),
  how: fc.constantFrom("throw" as const, "recurse" as const),
  proxy: fc.boolean()
})

/** The ways a tool hands the host a value. */
const DELIVERIES = ["throw", "reject", "effect-fail", "effect-die", "answer"] as const

const hostileTool = (value: object, delivery: (typeof DELIVERIES)[number]): Tool<void, unknown> => ({
  description: "hands the host a hostile value",
  input: Schema.Void,
  run: () => {
    switch (delivery) {
      case "throw":
        throw value
      case "reject":
        return Promise.reject(value)
      case "effect-fail":
        return Effect.fail(value)
      case "effect-die":
        return Effect.die(value)
      case "answer":
        return Promise.resolve(value)
    }
  }
})

const pool = makeSandboxPool({ maxWorkers: 2 })
afterAll(() => pool.close())

const unhandled: Array<unknown> = []
const onUnhandled = (reason: unknown) => void unhandled.push(reason)
beforeEach(() => {
  unhandled.length = 0
  process.on("unhandledRejection", onUnhandled)
})
afterEach(() => {
  process.off("unhandledRejection", onUnhandled)
})

/** A logger that renders every argument as the CLI's does (`String`), so a log line reads the value too. */
const renderedLogs: Array<string> = []
const renderingLogger = Logger.layer([Logger.make(({ message }) => void renderedLogs.push((Array.isArray(message) ? message : [message]).map(String).join(" ")))])

/** Runs code with the Effect form, on the shared pool, logging through the rendering logger. */
const runCode = (code: string, tools: ToolTree) =>
  Effect.runPromise(executeEffect(code, { tools }).pipe(Effect.provideService(Sandboxes, { pool }), Effect.provide(renderingLogger)))

describe("a tool's hostile value on the host", () => {
  it("never escapes: every accessor of an error or answer throwing or recursing ends the call as a typed error, and the host stays up", async () => {
    await fc.assert(
      fc.asyncProperty(hostility, fc.constantFrom(...DELIVERIES), async (shape, delivery) => {
        const result = await runCode("try { return ['ok', await tools.hostile()] } catch (error) { return ['failed', error._tag] }", {
          hostile: hostileTool(hostileValue(shape), delivery)
        })
        expect(result.status).toBe("completed")
        const [outcome, tag] = result.result as [string, unknown]
        // The call answered, or failed typed: internal, or the tagged error's public form when it could still be read.
        expect(outcome === "ok" || tag === "InternalToolError" || tag === "NotFound").toBe(true)
        expect(unhandled).toEqual([])
      }),
      { numRuns: 80 }
    )
    const after = await runCode("return await tools.echo({ n: 1 })", { echo: tool(Schema.Unknown, async (value) => value) })
    expect(after).toMatchObject({ status: "completed", result: { n: 1 } })
  })

  it("reads a hostile error for its public payload and its log line without throwing", () => {
    fc.assert(
      fc.property(hostility, (shape) => {
        const value = hostileValue(shape)
        expect(() => publicToolError(value)).not.toThrow()
        expect(typeof describeForeign(value)).toBe("string")
      }),
      { numRuns: 300 }
    )
    expect(describeForeign(hostileValue({ base: "error", accessors: ["stack"], how: "throw", proxy: false }))).toBe("Error: plain")
    expect(describeForeign(hostileValue({ base: "object", accessors: [], how: "throw", proxy: true }))).toBe("a value that could not be read")
    expect(describeForeign("x".repeat(10_000))).toHaveLength(4001)
  })

  it("keeps a host process up when a tool throws a typed error whose message getter throws", async () => {
    const run = await runInChild(`
      import { execute } from "@armory/codemode"
      import { Schema } from "effect"
      // A typed error that wraps a third-party one and reads its message from it.
      class UpstreamFailed extends Schema.TaggedError()("UpstreamFailed", { service: Schema.String }) {
        get message() { throw new Error("the wrapped client's message getter throws") }
      }
      const error = new UpstreamFailed({ service: "billing" })
      const tools = { thirdParty: { call: { description: "wraps a third-party client", input: Schema.Void, run: async () => { throw error } } } }
      const first = await execute("try { await tools.thirdParty.call() } catch (e) { return e._tag }", { tools })
      const second = await execute("return 1 + 1", { tools })
      console.log(JSON.stringify({ first: first.result, second: second.result }))
    `)
    expect(run.code).toBe(0)
    expect(run.report).toEqual({ first: "InternalToolError", second: 2 })
  })
})
