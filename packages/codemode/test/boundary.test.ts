import { Worker } from "node:worker_threads"
import { Schema } from "effect"
import { afterEach, describe, expect, it, vi } from "vitest"
import { execute, type ToolTree } from "../src/index.js"
import { type CallAnswer, decodeCalls, encodeAnswers, type SandboxOutcome, type ToWorker } from "../src/internal/Protocol.js"
import { compileQuickJs, INITIAL_MEMORY_BYTES, memoryCapBytes } from "../src/internal/QuickJs.js"
import { buildRealm, makeRealmStock, type Realm, startExecution } from "../src/internal/Sandbox.js"
import { testTools, tool } from "./support/tools.js"

const PARALLEL = "return (await Promise.all(Array.from({ length: 100 }, (_, i) => tools.t.echo(i)))).join(',')"
const LIMITS = { timeoutMs: 5_000, memoryLimitBytes: 32 * 1024 * 1024, maxStackBytes: 1024 * 1024, maxLogLines: 200, maxResultBytes: 65_536, maxInputBytes: 1024 * 1024 }

const wasm = await compileQuickJs()
const fresh = () => buildRealm(wasm, LIMITS.memoryLimitBytes)

afterEach(() => {
  vi.restoreAllMocks()
})

describe("the guest side of the boundary", () => {
  it("hands a burst of parallel calls over in one turn and takes their answers in one", async () => {
    const batches: Array<string> = []
    const outcomes: Array<SandboxOutcome> = []
    const execution = startExecution(await fresh(), PARALLEL, [], LIMITS, {
      requestCalls: (calls) => batches.push(calls),
      done: (outcome) => outcomes.push(outcome)
    })
    expect(batches).toHaveLength(1)
    const calls = decodeCalls(batches[0] ?? "")
    expect(calls.map((call) => call.input)).toEqual(Array.from({ length: 100 }, (_, index) => String(index)))
    const answers = calls.map(({ callId, input }): CallAnswer => ({ callId, outcome: { ok: true, output: input ?? "null" } }))
    execution.settle(encodeAnswers(answers.toReversed()))
    expect(outcomes).toEqual([
      {
        status: "completed",
        resultJson: JSON.stringify(Array.from({ length: 100 }, (_, index) => index).join(",")),
        logs: [],
        truncated: false,
        memoryBytes: INITIAL_MEMORY_BYTES
      }
    ])
  })

  it("starts no call made by a guest that crossed the deadline inside one long step", async () => {
    // The interrupt handler only runs every few thousand operations, so a guest can cross the
    // deadline without being interrupted (one long builtin does); the clock jumping does the same here.
    const realm = await fresh()
    const start = Date.now()
    let reads = 0
    vi.spyOn(Date, "now").mockImplementation(() => (reads++ === 0 ? start : start + LIMITS.timeoutMs + 1))
    const batches: Array<string> = []
    const outcomes: Array<SandboxOutcome> = []
    startExecution(realm, "tools.spy.hit(1); return 1", [], LIMITS, {
      requestCalls: (calls) => batches.push(calls),
      done: (outcome) => outcomes.push(outcome)
    })
    expect(batches).toEqual([])
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["timeout"])
  })

  it("does not enter the guest with answers that arrive after the deadline", async () => {
    const batches: Array<string> = []
    const outcomes: Array<SandboxOutcome> = []
    const execution = startExecution(await fresh(), "await tools.spy.hit(1); tools.spy.hit(2); return 2", [], LIMITS, {
      requestCalls: (calls) => batches.push(calls),
      done: (outcome) => outcomes.push(outcome)
    })
    const [first] = decodeCalls(batches[0] ?? "")
    expect(first?.path).toBe("spy.hit")
    vi.spyOn(Date, "now").mockReturnValue(Date.now() + LIMITS.timeoutMs + 1)
    execution.settle(encodeAnswers([{ callId: first?.callId ?? -1, outcome: { ok: true } }]))
    expect(batches).toHaveLength(1)
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["timeout"])
  })

  it("refuses call text the prelude could not have written", () => {
    expect(() => decodeCalls('[1,"t.echo"],{"x":1}')).toThrow("malformed tool call")
    expect(() => decodeCalls('[1,"t.echo",2]')).toThrow("malformed tool call")
    for (const callId of ["-1", "1.5", "1e300"]) expect(() => decodeCalls(`[${callId},"t.echo"]`)).toThrow("malformed tool call")
    expect(decodeCalls('[0,"t.echo"],[1,"t.echo","\\"a\\""]')).toEqual([
      { callId: 0, path: "t.echo" },
      { callId: 1, path: "t.echo", input: '"a"' }
    ])
  })
})

describe("realms built ahead", () => {
  it("hands out the realm built while idle, once, and builds on demand when none is ready", async () => {
    const built: Array<Realm> = []
    const realms = makeRealmStock(async (limit) => {
      const realm = await buildRealm(wasm, limit)
      built.push(realm)
      return realm
    })
    realms.refill(LIMITS.memoryLimitBytes)
    realms.refill(LIMITS.memoryLimitBytes)
    // Positions, not the realms themselves: a failed comparison would try to print a whole QuickJS module.
    const taken = [await realms.take(LIMITS.memoryLimitBytes), await realms.take(LIMITS.memoryLimitBytes)].map((realm) => built.indexOf(realm))
    expect(taken).toEqual([0, 1])
    expect(built).toHaveLength(2)
  })

  it("builds a realm for the limit it is asked for, never handing out one capped for another", async () => {
    const realms = makeRealmStock((limit) => buildRealm(wasm, limit))
    realms.refill(LIMITS.memoryLimitBytes)
    const realm = await realms.take(2 * LIMITS.memoryLimitBytes)
    expect(realm.memoryLimitBytes).toBe(2 * LIMITS.memoryLimitBytes)
    expect(realm.instance.capBytes).toBe(memoryCapBytes(2 * LIMITS.memoryLimitBytes))
  })

  it("gives every realm a linear memory of its own", async () => {
    const [first, second] = await Promise.all([fresh(), fresh()])
    expect(first?.instance.memory).not.toBe(second?.instance.memory)
  })

  it("runs an execution in a realm built ahead as in a new one", async () => {
    const realms = makeRealmStock((limit) => buildRealm(wasm, limit))
    realms.refill(LIMITS.memoryLimitBytes)
    const outcomes: Array<SandboxOutcome> = []
    startExecution(await realms.take(LIMITS.memoryLimitBytes), "console.log(typeof math); return Object.getOwnPropertyNames(globalThis).includes('math')", ["math"], LIMITS, {
      requestCalls: () => undefined,
      done: (outcome) => outcomes.push(outcome)
    })
    expect(outcomes).toEqual([{ status: "completed", resultJson: "true", logs: ["[log] function"], truncated: false, memoryBytes: INITIAL_MEMORY_BYTES }])
  })
})

describe("the host side of the boundary", () => {
  it("answers a burst of fast calls with one message", async () => {
    const posted = vi.spyOn(Worker.prototype, "postMessage")
    const tools: ToolTree = { t: { echo: tool(Schema.Number, async (value) => value) } }
    const result = await execute(PARALLEL, { tools })
    expect(result.status).toBe("completed")
    expect(result.calls).toHaveLength(100)
    const settles = posted.mock.calls.filter((args) => (args[0] as ToWorker).type === "settle")
    expect(settles).toHaveLength(1)
  })

  it("answers a fast call without waiting for a slow one", async () => {
    let releaseSlow: (() => void) | undefined
    const tools: ToolTree = {
      t: {
        fast: tool(Schema.Void, async () => "fast"),
        slow: tool(Schema.Void, () => new Promise<string>((resolve) => (releaseSlow = () => resolve("slow")))),
        release: tool(Schema.Void, async () => {
          releaseSlow?.()
          return null
        })
      }
    }
    // The slow call is released only by a call made after the fast one was answered.
    const result = await execute(
      "const slow = tools.t.slow(); const fast = await tools.t.fast(); await tools.t.release(); return [fast, await slow]",
      { tools, timeoutMs: 5_000 }
    )
    expect(result).toMatchObject({ status: "completed", result: ["fast", "slow"] })
  })
})

/** Guest code whose `Object.prototype.toJSON` turns the prelude's report into a forged success. */
const forge = (when: string, json: string) =>
  `Object.prototype.toJSON = function () { return this.ok === ${when} ? { ok: true, json: ${json} } : this };`

describe("tool calls across the boundary", () => {
  it("still runs a call the guest made just before returning", async () => {
    let hits = 0
    const tools: ToolTree = {
      spy: {
        hit: tool(Schema.Void, async () => {
          hits++
          return null
        })
      }
    }
    const result = await execute("tools.spy.hit(); return 'returned'", { tools })
    expect(result.result).toBe("returned")
    expect(result.calls.map((call) => call.path)).toEqual(["spy.hit"])
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(hits).toBe(1)
  })

  it.each([
    ["a call made in the turn the time limit cuts short", "tools.spy.hit(1); for (;;) {}", []],
    ["a call made after an answered one, in a turn cut short", "await tools.spy.hit(1); tools.spy.hit(2); for (;;) {}", [1]]
  ])("never starts %s", async (_, code, expected) => {
    const hits: Array<number> = []
    const tools: ToolTree = {
      spy: {
        hit: tool(Schema.Number, async (value) => {
          hits.push(value)
          return null
        })
      }
    }
    const result = await execute(code, { tools, timeoutMs: 200 })
    expect(result.status).toBe("timeout")
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(hits).toEqual(expected)
  })

  it("binds the listed globals for that execution only", async () => {
    const bound = await execute("return typeof math.add", { tools: testTools(), globals: ["math"] })
    expect(bound.result).toBe("function")
    const unbound = await execute("return typeof math", { tools: testTools() })
    expect(unbound.result).toBe("undefined")
  })

  it("refuses a call it cannot send as a rejected promise, never a throw at the call", async () => {
    const result = await execute(
      `const calls = [tools.util.echo(1, 2), tools.util.echo(() => 1), tools.util.echo({ at: new Map() })]
       const kinds = calls.map((call) => call instanceof Promise)
       return [kinds, await Promise.all(calls.map((call) => call.then(() => "resolved", (error) => error.constructor.name + ": " + error.message)))]`,
      { tools: testTools() }
    )
    expect(result).toMatchObject({
      status: "completed",
      result: [
        [true, true, true],
        [
          "TypeError: tools.util.echo takes one input value, got 2 arguments",
          "TypeError: tools.util.echo: the input is not JSON-serialisable: the input is a function, which JSON cannot carry",
          'TypeError: tools.util.echo: the input is not JSON-serialisable: the property "at" is a Map, which JSON would turn into {}'
        ]
      ],
      calls: []
    })
  })

  it("resolves a path by its parts only, however often a node was reached before", async () => {
    const result = await execute(
      `const first = tools.util.echo, again = tools.util.echo
       return [first === again, typeof tools["util.echo"], typeof tools.util["echo"], typeof tools.util.then, typeof tools.util["1x"], await again("kept")]`,
      { tools: testTools() }
    )
    expect(result).toMatchObject({ status: "completed", result: [true, "undefined", "function", "undefined", "undefined", "kept"] })
  })

  it("fails only the call whose error a poisoned Error.prototype breaks", async () => {
    const result = await execute(
      `Object.defineProperty(Error.prototype, "name", { set() { throw new TypeError("poisoned") }, configurable: true })
       const settled = await Promise.allSettled([tools.util.notFound({ id: "a" }), tools.util.echo(1)])
       return settled.map((entry) => entry.status === "fulfilled" ? entry.value : entry.reason.message)`,
      { tools: testTools() }
    )
    expect(result).toMatchObject({ status: "completed", result: ["poisoned", 1] })
  })

  it("reports the outcome unchanged when user code adds toJSON to Object.prototype", async () => {
    const returned = await execute(`${forge("true", '"{not json"')} return 1`, { tools: {} })
    expect(returned).toMatchObject({ status: "completed", result: 1 })
    const thrown = await execute(`${forge("false", "'\"forged\"'")} throw new RangeError("kept")`, { tools: {} })
    expect(thrown).toMatchObject({ status: "error", error: { _tag: "RangeError", message: "kept" } })
  })

  it("sends paths and inputs unchanged when user code adds toJSON to prototypes", async () => {
    const result = await execute(
      "for (const type of [Array, String, Number]) type.prototype.toJSON = function () { return 'replaced' }; return await tools.util.echo('kept')",
      { tools: testTools() }
    )
    expect(result).toMatchObject({ status: "completed", result: "kept", calls: [{ path: "util.echo", status: "ok" }] })
  })
})
