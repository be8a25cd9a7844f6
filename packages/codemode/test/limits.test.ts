import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { execute, type ToolTree } from "../src/index.js"
import { MAX_LISTED_OVER_LIMIT } from "../src/internal/Bridge.js"
import { tool } from "./support/tools.js"

describe("limits", () => {
  it("stops a CPU-bound guest at its deadline", async () => {
    const result = await execute("while (true) {}", { tools: {}, timeoutMs: 100 })
    expect(result.status).toBe("timeout")
    expect(result.error?._tag).toBe("Timeout")
  })

  it("cannot catch its own timeout", async () => {
    const result = await execute("try { while (true) {} } catch (e) { return 'caught' }", { tools: {}, timeoutMs: 100 })
    expect(result.status).toBe("timeout")
  })

  it("times out while waiting on a tool and says which calls were applied", async () => {
    const written: Array<string> = []
    let releaseSlow: (() => void) | undefined
    const tools: ToolTree = {
      db: {
        write: tool(Schema.String, async (value) => {
          written.push(value)
          return "ok"
        }),
        slow: tool(Schema.Void, () => new Promise<string>((resolve) => (releaseSlow = () => resolve("late"))))
      }
    }
    // The deadline is generous so that the first write lands before it however loaded the machine is:
    // only the slow call, which never answers in time, may be cut off.
    const result = await execute("await tools.db.write('first'); await tools.db.slow(); await tools.db.write('second')", {
      tools,
      timeoutMs: 2_000
    })
    expect(result.status).toBe("timeout")
    expect(result.calls).toEqual([
      { path: "db.write", status: "ok" },
      { path: "db.slow", status: "error" }
    ])
    expect(result.error?.message).toContain("1 tool call was still running")
    releaseSlow?.()
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(written).toEqual(["first"])
  })

  it("never runs a guest callback after the timeout", async () => {
    const calledAfter: Array<string> = []
    let releaseSlow: (() => void) | undefined
    const tools: ToolTree = {
      host: {
        slow: tool(Schema.Void, () => new Promise<number>((resolve) => (releaseSlow = () => resolve(1)))),
        record: tool(Schema.String, async (value) => {
          calledAfter.push(value)
          return null
        })
      }
    }
    const result = await execute(
      "tools.host.slow().then(() => tools.host.record('callback ran')); Promise.resolve().then(() => { while (true) {} })",
      { tools, timeoutMs: 150 }
    )
    expect(result.status).toBe("timeout")
    releaseSlow?.()
    await new Promise((resolve) => setTimeout(resolve, 150))
    expect(calledAfter).toEqual([])
  })

  it("refuses an allocation over the memory limit", async () => {
    const result = await execute("const b = new ArrayBuffer(1 << 30); return b.byteLength", {
      tools: {},
      memoryLimitBytes: 16 * 1024 * 1024
    })
    expect(result.status).toBe("error")
  })

  it("stops string doubling at the memory limit", async () => {
    const result = await execute("let s = 'x'; while (true) s = s + s", { tools: {}, memoryLimitBytes: 16 * 1024 * 1024 })
    expect(result.status).toBe("error")
    expect(result.error?._tag).toMatch(/MemoryLimitExceeded|RangeError|InternalError/)
  })

  it("stops unbounded recursion with a stack error", async () => {
    const result = await execute("const f = (n) => f(n + 1) + 1; return f(0)", { tools: {} })
    expect(result.status).toBe("error")
    expect(result.error?.message).toMatch(/stack/i)
  })

  it("refuses tool calls beyond maxToolCalls without running them", async () => {
    let ran = 0
    const tools: ToolTree = {
      t: {
        tick: tool(Schema.Void, async () => {
          ran++
          return ran
        })
      }
    }
    const result = await execute(
      "const out = []; for (let i = 0; i < 5; i++) { try { out.push(await tools.t.tick()) } catch (e) { out.push(e._tag) } } return out",
      { tools, maxToolCalls: 3 }
    )
    expect(result.result).toEqual([1, 2, 3, "ToolCallLimitExceeded", "ToolCallLimitExceeded"])
    expect(ran).toBe(3)
    expect(result.calls.map((call) => call.status)).toEqual(["ok", "ok", "ok", "denied", "denied"])
  })

  it("refuses a burst far past maxToolCalls with one answer each and lists only the first refusals", async () => {
    let ran = 0
    const tools: ToolTree = {
      t: {
        tick: tool(Schema.Void, async () => {
          ran++
          return null
        })
      }
    }
    const result = await execute(
      "const settled = await Promise.allSettled(Array.from({ length: 2_000 }, () => tools.t.tick())); return settled.filter((entry) => entry.reason?._tag === 'ToolCallLimitExceeded').length",
      { tools, maxToolCalls: 2 }
    )
    expect(result).toMatchObject({ status: "completed", result: 1_998 })
    expect(ran).toBe(2)
    const statuses = result.calls.map((call) => call.status)
    expect(statuses).toEqual(["ok", "ok", ...Array.from({ length: MAX_LISTED_OVER_LIMIT }, () => "denied")])
  })

  it("survives 10,000 pending promises and still times out cleanly", async () => {
    const result = await execute(
      "const all = []; for (let i = 0; i < 10000; i++) all.push(new Promise(() => {})); await Promise.all(all)",
      { tools: {}, timeoutMs: 200 }
    )
    expect(result.status).toBe("timeout")
  })

  it("runs the next execution normally after a timeout", async () => {
    await execute("while (true) {}", { tools: {}, timeoutMs: 50 })
    const result = await execute("return 'fine'", { tools: {} })
    expect(result).toMatchObject({ status: "completed", result: "fine" })
  })
})
