import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { execute, InvalidLimitError, type ToolTree } from "../src/index.js"
import { testTools, tool } from "./support/tools.js"

describe("execute", () => {
  it("runs the code as an async function body and returns its JSON result", async () => {
    const result = await execute("const x = await Promise.resolve(20); return { answer: x + 22, list: [1, 'two', null] }", {
      tools: {}
    })
    expect(result).toEqual({ status: "completed", result: { answer: 42, list: [1, "two", null] }, logs: [], calls: [] })
  })

  it("has no result when the code returns nothing", async () => {
    const result = await execute("1 + 1", { tools: {} })
    expect(result).toEqual({ status: "completed", logs: [], calls: [] })
  })

  it("captures console output with its level", async () => {
    const result = await execute("console.log('a', 1, { b: 2 }); console.warn('careful'); console.error('bad')", { tools: {} })
    expect(result.logs).toEqual(['[log] a 1 {"b":2}', "[warn] careful", "[error] bad"])
  })

  it("calls tools by path and through a global alias", async () => {
    const result = await execute("return [await tools.math.add({ a: 1, b: 2 }), await math.add({ a: 3, b: 4 })]", {
      tools: testTools(),
      globals: ["math"]
    })
    expect(result).toMatchObject({ status: "completed", result: [3, 7] })
    expect(result.calls).toEqual([
      { path: "math.add", status: "ok" },
      { path: "math.add", status: "ok" }
    ])
  })

  it("reports a thrown error as data", async () => {
    const result = await execute("throw new TypeError('nope')", { tools: {} })
    expect(result).toEqual({ status: "error", logs: [], calls: [], error: { _tag: "TypeError", message: "nope" } })
  })

  it("reports a syntax error as data", async () => {
    const result = await execute("return (", { tools: {} })
    expect(result.status).toBe("error")
    expect(result.error?._tag).toBe("SyntaxError")
  })

  it("reports a thrown non-error value", async () => {
    const result = await execute("throw 'plain'", { tools: {} })
    expect(result.error).toEqual({ _tag: "Thrown", message: "plain" })
  })

  it.each([
    ["a function", "return () => 1", "is a function"],
    ["a nested function", "return { f() {} }", 'the property "f" is a function'],
    ["a bigint", "return 10n", "is a bigint"],
    ["a non-finite number", "return { n: Infinity }", "is Infinity"],
    ["a cycle", "const a = {}; a.self = a; return a", "circular"]
  ])("refuses to return %s", async (_, code, reason) => {
    const result = await execute(code, { tools: {} })
    expect(result.status).toBe("error")
    expect(result.error?.message).toContain(reason)
  })

  it("starts every execution in a fresh realm", async () => {
    await execute("Object.prototype.polluted = 'yes'; globalThis.leftover = 1; Array.prototype.map = null", { tools: {} })
    const result = await execute("return [({}).polluted ?? null, typeof leftover, typeof [].map]", { tools: {} })
    expect(result.result).toEqual([null, "undefined", "function"])
  })

  it("runs Promise.all over tool calls concurrently", async () => {
    const count = 20
    let active = 0
    let maxActive = 0
    let release: (() => void) | undefined
    const allArrived = new Promise<void>((resolve) => {
      release = resolve
    })
    const tools: ToolTree = {
      slow: {
        wait: tool(Schema.Number, async (index) => {
          active++
          maxActive = Math.max(maxActive, active)
          // Each call finishes only once every call has started: sequential calls would never get there.
          if (active === count) release?.()
          await allArrived
          active--
          return index
        })
      }
    }
    const result = await execute(`return await Promise.all(Array.from({ length: ${count} }, (_, i) => tools.slow.wait(i)))`, {
      tools,
      timeoutMs: 5_000
    })
    expect(result.status).toBe("completed")
    expect(result.result).toEqual(Array.from({ length: count }, (_, index) => index))
    expect(maxActive).toBe(count)
  })

  it("passes tool output through the output schema's JSON form", async () => {
    const tools: ToolTree = {
      time: { epoch: tool(Schema.Void, async () => new Date(0), Schema.Date) }
    }
    const result = await execute("return await tools.time.epoch()", { tools })
    expect(result.result).toBe("1970-01-01T00:00:00.000Z")
  })

  it("cuts an oversize result to its head and tail with a note on how to narrow it", async () => {
    const result = await execute("return Array.from({ length: 5000 }, (_, i) => 'item-' + i)", { tools: {}, maxResultBytes: 1_000 })
    expect(result.truncated).toBe(true)
    expect(typeof result.result).toBe("string")
    const text = String(result.result)
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(1_000)
    expect(text.startsWith('["item-0","item-1"')).toBe(true)
    expect(text.endsWith('"item-4999"]')).toBe(true)
    expect(text).toContain("result truncated")
    expect(text).toContain("return less")
  })

  it("keeps at most 200 log lines and says how many were dropped", async () => {
    const result = await execute("for (let i = 0; i < 1000; i++) console.log('line ' + i)", { tools: {} })
    expect(result.logs).toHaveLength(200)
    expect(result.logs[0]).toBe("[log] line 0")
    expect(result.logs[199]).toContain("801 more log lines dropped")
    expect(result.truncated).toBe(true)
  })

  it.each([
    ["timeoutMs", 0],
    ["timeoutMs", Number.NaN],
    ["maxToolCalls", Number.NaN],
    ["maxToolCalls", -1],
    ["maxToolCalls", 1.5],
    ["memoryLimitBytes", 2 ** 40],
    ["maxResultBytes", Number.POSITIVE_INFINITY],
    ["maxInputBytes", 0]
  ] as const)("refuses %s: %s as a host error naming the limit, before anything runs", async (limit, value) => {
    const error = await execute("return 1", { tools: {}, [limit]: value }).catch((failure: unknown) => failure)
    expect(error).toBeInstanceOf(InvalidLimitError)
    expect(error).toMatchObject({ _tag: "InvalidLimitError", limit, value })
    expect((error as InvalidLimitError).message).toMatch(new RegExp(`^${limit} must be a whole number from \\d+ to \\d+, got `))
  })
})
