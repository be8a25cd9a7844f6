import { Worker } from "node:worker_threads"
import { Effect, Schema } from "effect"
import { afterAll, describe, expect, it, vi } from "vitest"
import { createSandboxPool, type ToolTree } from "../src/index.js"
import { MAX_LISTED_CALLS } from "../src/internal/Bridge.js"
import { makeSandboxPool } from "../src/internal/SandboxPool.js"
import { runInChild } from "./support/child.js"
import { tool } from "./support/tools.js"

const TOKEN = "tok_live_5f1c0a9e7b3d2c4a"
const MIB = 1024 * 1024
const RUN_LIMITS = { timeoutMs: 10_000, memoryLimitBytes: 64 * MIB, maxStackBytes: MIB, maxLogLines: 200, maxResultBytes: 65_536, maxInputBytes: MIB }

const pool = createSandboxPool({ maxWorkers: 2 })
afterAll(() => pool.close())

describe("no memory is shared between executions", () => {
  it("leaves nothing of one execution's tool output readable by the next, and offers no SharedArrayBuffer", async () => {
    const tools: ToolTree = { vault: { token: tool(Schema.Void, async () => TOKEN.repeat(64)) } }
    // Both executions on one worker, back to back: what used to share its WebAssembly instance.
    const single = createSandboxPool({ maxWorkers: 1 })
    try {
      const first = await single.execute("let kept = []; for (let i = 0; i < 200; i++) kept.push(await tools.vault.token()); return kept.length", { tools })
      expect(first.result).toBe(200)
      const scan = await single.execute(
        `const needle = ${JSON.stringify(TOKEN)}
         const found = []
         if (typeof SharedArrayBuffer === "function") {
           const sab = new SharedArrayBuffer(16, { maxByteLength: 4e6 })
           sab.grow(4e6)
           const bytes = new Uint8Array(sab)
           let text = ""
           for (let i = 0; i < bytes.length; i++) text += String.fromCharCode(bytes[i])
           if (text.includes(needle)) found.push("SharedArrayBuffer view")
         }
         return { found, shared: typeof SharedArrayBuffer, atomics: typeof Atomics }`,
        { tools: {} }
      )
      expect(scan.result).toEqual({ found: [], shared: "undefined", atomics: "undefined" })
    } finally {
      await single.close()
    }
  })
})

describe("memoryLimitBytes bounds every allocation", () => {
  it.each([
    ["ArrayBuffers", "const kept = []; for (let i = 0; i < 500; i++) kept.push(new ArrayBuffer(1 << 20)); return kept.length"],
    ["typed arrays", "const kept = []; for (let i = 0; i < 500; i++) kept.push(new Float64Array(1 << 17)); return kept.length"],
    ["strings", "const kept = []; for (let i = 0; i < 500; i++) kept.push('x'.repeat((1 << 20) + i)); return kept.length"]
  ])("refuses 500 MiB of %s under a 16 MiB limit as MemoryLimitExceeded", async (_, code) => {
    const result = await pool.execute(code, { tools: {}, memoryLimitBytes: 16 * MIB, timeoutMs: 20_000 })
    expect(result).toMatchObject({ status: "error", error: { _tag: "MemoryLimitExceeded" } })
  })

  it("gives the idle host its memory back after ten ArrayBuffer bombs", async () => {
    const run = await runInChild(`
      import { createSandboxPool } from "@armory/codemode"
      const pool = createSandboxPool({ maxWorkers: 2 })
      const rss = () => process.memoryUsage().rss
      await pool.execute("return 1", { tools: {} })
      const settle = () => new Promise((resolve) => setTimeout(resolve, 500))
      await settle()
      const baseline = rss()
      const bomb = "const kept = []; for (;;) kept.push(new ArrayBuffer(1 << 20))"
      const results = await Promise.all(Array.from({ length: 10 }, () => pool.execute(bomb, { tools: {}, timeoutMs: 20000 })))
      await pool.execute("return 1", { tools: {} })
      await settle()
      console.log(JSON.stringify({ tags: results.map((result) => result.error?._tag), baseline, idle: rss() }))
      await pool.close()
    `)
    const report = run.report as { tags: ReadonlyArray<string>; baseline: number; idle: number }
    expect(run.code).toBe(0)
    expect(report.tags).toEqual(Array.from({ length: 10 }, () => "MemoryLimitExceeded"))
    expect(report.idle - report.baseline).toBeLessThan(50 * MIB)
  }, 120_000)
})

describe("the host's heap is bounded whatever the guest names", () => {
  it("never sends a path that is not a chain of identifiers of at most 256 characters", async () => {
    const seen: Array<string> = []
    const result = await pool.execute(
      `const long = "a".repeat(300)
       const outcomes = []
       for (const name of [long, "a-b", "1a", ""]) {
         try { await tools[name]() ; outcomes.push("called") } catch (e) { outcomes.push(e.constructor.name) }
       }
       let node = tools
       for (let i = 0; i < 100; i++) node = node && node.abcdefgh
       outcomes.push(typeof node)
       return outcomes`,
      { tools: {}, authorize: ({ path }) => (seen.push(path), true) }
    )
    expect(result.result).toEqual(["TypeError", "TypeError", "TypeError", "TypeError", "undefined"])
    expect(result.calls).toEqual([])
    expect(seen).toEqual([])
  })

  it("keeps the host within a small heap while a guest floods it with refused calls", async () => {
    const run = await runInChild(
      `
      import { execute } from "@armory/codemode"
      const result = await execute(
        "for (let round = 0; round < 500; round++) { const p = []; for (let i = 0; i < 100; i++) p.push(tools['n' + i + 'x'.repeat(200)].x().catch(() => 0)); await Promise.all(p) } return 'flooded'",
        // The flood takes about 10 s on an idle 2-core machine; the deadline is not what this test is about.
        { tools: {}, timeoutMs: 90000, maxToolCalls: 100000 }
      )
      console.log(JSON.stringify({ status: result.status, listed: result.calls.length, omitted: result.omittedCalls, bytes: JSON.stringify(result).length, heap: process.memoryUsage().heapUsed }))
    `,
      ["--max-old-space-size=96"]
    )
    expect(run.code).toBe(0)
    const report = run.report as { status: string; listed: number; omitted: number; bytes: number }
    expect(report.status).toBe("completed")
    expect(report.listed).toBe(MAX_LISTED_CALLS)
    expect(report.omitted).toBe(50_000 - MAX_LISTED_CALLS)
    expect(report.bytes).toBeLessThan(MIB)
  }, 180_000)
})

describe("nothing a guest sends can throw on the host", () => {
  class Rejected extends Schema.TaggedError<Rejected>()("Rejected", { detail: Schema.Unknown }) {}

  it("answers a public error whose fields nest 5,000 levels deep as an opaque internal error", async () => {
    const run = await runInChild(`
      import { execute } from "@armory/codemode"
      import { Schema } from "effect"
      class Rejected extends Schema.TaggedError()("Rejected", { detail: Schema.Unknown }) {}
      const tools = { t: { reject: { description: "echoes its input in an error", input: Schema.Unknown, run: async (detail) => { throw new Rejected({ detail }) } } } }
      const internal = []
      const result = await execute(
        "let v = 0; for (let i = 0; i < 5000; i++) v = [v]; try { await tools.t.reject(v) } catch (e) { return [e._tag, e.message.startsWith('internal tool error')] }",
        { tools, onInternalError: (report) => internal.push(report.error._tag) }
      )
      console.log(JSON.stringify({ status: result.status, result: result.result, internal }))
    `)
    expect(run.code).toBe(0)
    expect(run.report).toMatchObject({ status: "completed", result: ["ToolInputError", false] })
  }, 60_000)

  it("passes a public error with fields of reasonable size intact, and a host-made deep one opaquely", async () => {
    const deep = (levels: number): unknown => (levels === 0 ? 0 : [deep(levels - 1)])
    const internal: Array<string> = []
    const tools: ToolTree = {
      t: {
        small: tool(Schema.Void, async () => {
          throw new Rejected({ detail: { reason: "quota" } })
        }),
        deep: tool(Schema.Void, async () => {
          throw new Rejected({ detail: deep(5_000) })
        })
      }
    }
    const result = await pool.execute(
      "const out = []; for (const name of ['small', 'deep']) { try { await tools.t[name]() } catch (e) { out.push([e._tag, e.detail ?? null]) } } return out",
      { tools, onInternalError: ({ error }) => void internal.push((error as Rejected)._tag) }
    )
    expect(result.result).toEqual([
      ["Rejected", { reason: "quota" }],
      ["InternalToolError", null]
    ])
    expect(internal).toEqual(["Rejected"])
  })
})

describe("a bounded pool", () => {
  it("loads no WebAssembly on import and compiles QuickJS once per process, however many pools and executions", async () => {
    const run = await runInChild(`
      let compiled = 0
      const compile = WebAssembly.compile
      WebAssembly.compile = (...args) => (compiled++, compile(...args))
      const { createSandboxPool, execute } = await import("@armory/codemode")
      const atImport = compiled
      const first = createSandboxPool({ maxWorkers: 2 })
      const second = createSandboxPool({ maxWorkers: 2 })
      await Promise.all([...Array.from({ length: 6 }, () => first.execute("return 1", { tools: {} })), second.execute("return 2", { tools: {} }), execute("return 3", { tools: {} })])
      await Promise.all([first.close(), second.close()])
      console.log(JSON.stringify({ atImport, compiled }))
    `)
    expect(run.code).toBe(0)
    expect(run.report).toEqual({ atImport: 0, compiled: 1 })
  }, 60_000)


  it("runs back-to-back executions on a second worker while the first builds its next instance, never past maxWorkers", async () => {
    const posted = vi.spyOn(Worker.prototype, "postMessage")
    // The pool itself, without `execute` in between: the next run is asked for the moment the last one ends.
    const threadsServing = async (maxWorkers: number) => {
      posted.mockClear()
      const sequential = makeSandboxPool({ maxWorkers })
      try {
        for (let index = 0; index < 20; index++) {
          const outcome = await sequential.run({ code: "return 1", globals: [], limits: RUN_LIMITS, deadline: Date.now() + 10_000, onCall: () => Promise.reject(new Error("no tools")) })
          expect(outcome.status).toBe("completed")
        }
      } finally {
        await sequential.close()
      }
      const runs = posted.mock.calls.flatMap(([message], index) => {
        const worker = posted.mock.contexts[index]
        // The workers themselves: a worker's threadId reads -1 once it has exited.
        return Reflect.get(Object(message), "type") === "run" && worker instanceof Worker ? [worker] : []
      })
      return { runs: runs.length, threads: new Set(runs).size }
    }
    try {
      expect(await threadsServing(1)).toEqual({ runs: 20, threads: 1 })
      expect(await threadsServing(2)).toEqual({ runs: 20, threads: 2 })
    } finally {
      posted.mockRestore()
    }
  })

  it("completes 50 concurrent executions on two workers, queued first come first served", async () => {
    const results = await Promise.all(Array.from({ length: 50 }, (_, index) => pool.execute(`return ${index}`, { tools: {}, timeoutMs: 20_000 })))
    expect(results.map((result) => [result.status, result.result])).toEqual(Array.from({ length: 50 }, (_, index) => ["completed", index]))
  })

  it("counts the wait for a worker against the time limit", async () => {
    const single = createSandboxPool({ maxWorkers: 1 })
    try {
      const [busy, waiting] = await Promise.all([
        single.execute("while (true) {}", { tools: {}, timeoutMs: 1_000 }),
        single.execute("return 'ran'", { tools: {}, timeoutMs: 300 })
      ])
      expect(busy.status).toBe("timeout")
      expect(waiting).toMatchObject({ status: "timeout", error: { _tag: "Timeout", message: expect.stringMatching(/waiting for a sandbox/) } })
    } finally {
      await single.close()
    }
  })

  it("cancels what is queued and running when it closes, and refuses new work", async () => {
    const closing = createSandboxPool({ maxWorkers: 1 })
    const running = closing.execute("while (true) {}", { tools: {}, timeoutMs: 10_000 })
    const queued = closing.execute("return 1", { tools: {}, timeoutMs: 10_000 })
    await new Promise((resolve) => setTimeout(resolve, 200))
    await closing.close()
    expect((await running).error?._tag).toBe("Cancelled")
    expect((await queued).error?._tag).toBe("Cancelled")
    await expect(closing.execute("return 1", { tools: {} })).rejects.toThrow("the sandbox pool is closed")
  })
})

describe("no tool runs once the execution is over", () => {
  it("does not start a tool whose authorize answered after the deadline", async () => {
    let ran = false
    const tools: ToolTree = { bank: { transfer: tool(Schema.Number, async () => ((ran = true), "sent")) } }
    const result = await pool.execute("return await tools.bank.transfer(100)", {
      tools,
      timeoutMs: 200,
      authorize: () => new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 600))
    })
    await new Promise((resolve) => setTimeout(resolve, 700))
    expect(result.status).toBe("timeout")
    expect(ran).toBe(false)
    expect(result.calls).toEqual([{ path: "bank.transfer", status: "error" }])
  })

  it("aborts a running tool's signal at the deadline and interrupts an Effect tool", async () => {
    const seen: Array<string> = []
    const tools: ToolTree = {
      t: {
        promise: {
          description: "waits for its signal",
          input: Schema.Void,
          run: (_: void, { signal }) =>
            new Promise<string>((resolve) => signal.addEventListener("abort", () => (seen.push("promise aborted"), resolve("late")), { once: true }))
        },
        effect: {
          description: "sleeps",
          input: Schema.Void,
          run: () => Effect.sleep("5 seconds").pipe(Effect.onInterrupt(() => Effect.sync(() => void seen.push("effect interrupted"))))
        }
      }
    }
    const result = await pool.execute("await Promise.all([tools.t.promise(), tools.t.effect()])", { tools, timeoutMs: 300 })
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(result.status).toBe("timeout")
    expect(seen.toSorted()).toEqual(["effect interrupted", "promise aborted"])
  })

  it("tells a tool still running that the execution is over when the code fails, without waiting for it", async () => {
    let aborted = false
    const tools: ToolTree = {
      t: {
        wait: {
          description: "waits for its signal",
          input: Schema.Void,
          run: (_: void, { signal }) => new Promise<null>((resolve) => signal.addEventListener("abort", () => ((aborted = true), resolve(null)), { once: true }))
        }
      }
    }
    const result = await pool.execute("tools.t.wait(); await null; throw new Error('gave up')", { tools, timeoutMs: 10_000 })
    expect(result).toMatchObject({ status: "error", error: { _tag: "Error" }, calls: [{ path: "t.wait", status: "error" }] })
    expect(result.error?.message).toMatch(/^gave up; 1 tool call was still running on the host/)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(aborted).toBe(true)
  })

  it("reports a fire-and-forget call that succeeded after the code returned as ok", async () => {
    const tools: ToolTree = { t: { slow: tool(Schema.Void, () => new Promise<string>((resolve) => setTimeout(() => resolve("done"), 150))) } }
    const result = await pool.execute("tools.t.slow(); return 'returned'", { tools, timeoutMs: 5_000 })
    expect(result).toMatchObject({ status: "completed", result: "returned", calls: [{ path: "t.slow", status: "ok" }] })
    expect(result.error).toBeUndefined()
  })
})

describe("only the host decides that it stopped an execution", () => {
  it.each([
    ["a _tag getter that changes between reads", "let reads = 0; throw { get _tag() { return reads++ === 0 ? 'Error' : 'Timeout' }, message: 'hi' }"],
    ["a thrown Timeout", "throw { _tag: 'Timeout', message: 'the execution exceeded its 3000 ms time limit' }"],
    ["a thrown out of memory", "const e = new Error('out of memory'); e.name = 'InternalError'; throw e"],
    ["a thrown MemoryLimitExceeded", "throw { _tag: 'MemoryLimitExceeded', message: 'x' }"],
    ["a thrown SandboxCrashed", "throw { _tag: 'SandboxCrashed', message: 'x' }"],
    ["a thrown Cancelled", "throw { _tag: 'Cancelled', message: 'x' }"],
    ["a thrown InternalToolError", "throw { _tag: 'InternalToolError', message: 'internal tool error [deadbeef]' }"],
    ["an interrupted-looking error", "const e = new Error('interrupted'); e.name = 'InternalError'; throw e"]
  ])("%s cannot forge a host stop", async (_, code) => {
    const result = await pool.execute(code, { tools: {}, timeoutMs: 3_000 })
    expect(result.status).toBe("error")
    expect(["Timeout", "MemoryLimitExceeded", "SandboxCrashed", "InternalToolError", "Cancelled"]).not.toContain(result.error?._tag)
  })
})

describe("inputs and errors are bounded", () => {
  it("refuses an input over maxInputBytes with ToolInputError before it reaches the tool", async () => {
    let called = 0
    const tools: ToolTree = { t: { echo: tool(Schema.Unknown, async (value) => (called++, value)) } }
    const result = await pool.execute(
      "try { await tools.t.echo('x'.repeat(2e6)) } catch (e) { return [e._tag, e.message] }",
      { tools, maxInputBytes: MIB }
    )
    expect(result.result).toEqual(["ToolInputError", expect.stringMatching(/over the 1048576-byte limit/)])
    expect(called).toBe(0)
  })

  it("cuts an error message to maxResultBytes and says so", async () => {
    const result = await pool.execute("throw new Error('y'.repeat(5e6))", { tools: {}, maxResultBytes: 4_096 })
    expect(result.status).toBe("error")
    expect(Buffer.byteLength(result.error?.message ?? "")).toBeLessThanOrEqual(4_096)
    expect(result.error?.message).toMatch(/error message truncated/)
    expect(result.truncated).toBe(true)
  })

  it("drops own __proto__ keys from decoded input", async () => {
    const received: Array<unknown> = []
    const tools: ToolTree = { t: { take: tool(Schema.Unknown, async (value) => (received.push(value), null)) } }
    await pool.execute('await tools.t.take(JSON.parse(\'{"__proto__": {"admin": true}, "a": {"__proto__": 1, "b": 2}}\'))', { tools })
    expect(received).toHaveLength(1)
    expect(Object.hasOwn(received[0] as object, "__proto__")).toBe(false)
    expect(received[0]).toEqual({ a: { b: 2 } })
  })

  it.each([
    ["a Map", "return new Map([[1, 2]])", "Map"],
    ["a Set inside an object", "return { tags: new Set(['a']) }", "Set"],
    ["a typed array", "return new Uint8Array(4)", "Uint8Array"]
  ])("refuses %s as a result instead of turning it into {}", async (_, code, kind) => {
    const result = await pool.execute(code, { tools: {} })
    expect(result).toMatchObject({ status: "error", error: { _tag: "TypeError", message: expect.stringContaining(`is a ${kind}, which JSON would turn into {}`) } })
  })

  it("still returns dates, wrapped primitives and class instances as JSON does", async () => {
    const result = await pool.execute("class P { constructor() { this.x = 1 } } return [new Date(0), new Number(2), new P()]", { tools: {} })
    expect(result.result).toEqual(["1970-01-01T00:00:00.000Z", 2, { x: 1 }])
  })
})
