import { Effect, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { execute, executeEffect, type InternalToolError, InvalidGlobalsError, type ToolTree } from "../src/index.js"
import { SECRET, testTools, tool } from "./support/tools.js"

describe("tool errors", () => {
  it("passes a Schema-backed tagged error to the guest with its tag, message and encoded fields", async () => {
    const result = await execute(
      "try { await tools.util.notFound({ id: 'u1' }) } catch (e) { return { tag: e._tag, name: e.name, message: e.message, id: e.id, attempts: e.attempts, isError: e instanceof Error } }",
      { tools: testTools() }
    )
    expect(result.result).toEqual({ tag: "NotFound", name: "NotFound", message: "no record u1", id: "u1", attempts: 3, isError: true })
    expect(result.calls).toEqual([{ path: "util.notFound", status: "error" }])
  })

  it("turns any other error into an opaque internal error and keeps the real one on the host", async () => {
    const reports: Array<InternalToolError> = []
    const result = await execute("try { await tools.util.fail() } catch (e) { return { tag: e._tag, message: e.message } }", {
      tools: testTools(),
      onInternalError: (report) => reports.push(report)
    })
    const seen = result.result as { tag: string; message: string }
    expect(seen.tag).toBe("InternalToolError")
    expect(seen.message).toMatch(/^internal tool error \[[0-9a-f]{8}\]$/)
    expect(JSON.stringify(result)).not.toContain(SECRET)
    expect(reports).toHaveLength(1)
    expect(seen.message).toContain(reports[0]?.id)
    expect(String(reports[0]?.error)).toContain(SECRET)
  })

  it("reports an uncaught tool error as the execution's error", async () => {
    const result = await execute("await tools.util.notFound({ id: 'x' })", { tools: testTools() })
    expect(result).toMatchObject({ status: "error", error: { _tag: "NotFound", message: "no record x" } })
  })

  it("rejects a bad input with the Schema's reason, catchable by the guest", async () => {
    const result = await execute("try { await tools.math.add({ a: 'one', b: 2 }) } catch (e) { return [e._tag, e.message] }", {
      tools: testTools()
    })
    expect(result.result).toEqual(["ToolInputError", 'tools.math.add: invalid input: Expected number\n  at ["a"]'])
  })

  it("runs a tool that returns an Effect, passing its typed failure through", async () => {
    class Busy extends Schema.TaggedError<Busy>()("Busy", { retryAfter: Schema.Number }) {}
    const tools: ToolTree = {
      fx: {
        ok: { description: "succeeds", input: Schema.Number, run: (n: number) => Effect.succeed(n * 2) },
        busy: { description: "fails", input: Schema.Void, run: () => Effect.fail(new Busy({ retryAfter: 5 })) }
      }
    }
    const result = await execute("let busy; try { await tools.fx.busy() } catch (e) { busy = [e._tag, e.retryAfter] } return [await tools.fx.ok(21), busy]", {
      tools
    })
    expect(result.result).toEqual([42, ["Busy", 5]])
  })

  it("says when a path names no tool", async () => {
    const result = await execute("try { await tools.math.nope() } catch (e) { return [e._tag, e.message] }", { tools: testTools() })
    expect(result.result).toEqual(["UnknownTool", "tools.math.nope is not a tool"])
  })

  it("refuses a call with more than one argument", async () => {
    const result = await execute("try { await tools.math.add(1, 2) } catch (e) { return e.message }", { tools: testTools() })
    expect(result.result).toContain("takes one input value")
    expect(result.calls).toEqual([])
  })
})

describe("authorize", () => {
  it("is asked once per call with the path and decoded input; a denied call throws in the guest", async () => {
    const asked: Array<{ path: string; input: unknown }> = []
    const result = await execute(
      "const sum = await math.add({ a: 1, b: 1 }); try { await tools.util.echo('secret') } catch (e) { return [sum, e._tag] }",
      {
        tools: testTools(),
        globals: ["math"],
        authorize: (call) => {
          asked.push(call)
          return call.path !== "util.echo"
        }
      }
    )
    expect(result.result).toEqual([2, "ToolCallDenied"])
    expect(asked).toEqual([
      { path: "math.add", input: { a: 1, b: 1 } },
      { path: "util.echo", input: "secret" }
    ])
    expect(result.calls).toEqual([
      { path: "math.add", status: "ok" },
      { path: "util.echo", status: "denied" }
    ])
  })

  it("fails closed when authorize throws", async () => {
    const result = await execute("await tools.util.echo(1)", {
      tools: testTools(),
      authorize: () => {
        throw new Error("policy store down")
      },
      onInternalError: () => undefined
    })
    expect(result.calls).toEqual([{ path: "util.echo", status: "denied" }])
    expect(result.error?._tag).toBe("ToolCallDenied")
  })
})

describe("executeEffect", () => {
  it("runs like execute", async () => {
    const result = await Effect.runPromise(executeEffect("return await math.add({ a: 2, b: 3 })", { tools: testTools(), globals: ["math"] }))
    expect(result.result).toBe(5)
  })

  it("fails with InvalidGlobalsError for bad globals", async () => {
    const error = await Effect.runPromise(Effect.flip(executeEffect("return 1", { tools: testTools(), globals: ["nope"] })))
    expect(error).toBeInstanceOf(InvalidGlobalsError)
  })

  it("cancels the execution when the fiber is interrupted", async () => {
    let calls = 0
    const tools: ToolTree = {
      t: {
        tick: tool(Schema.Void, async () => {
          calls++
          return null
        })
      }
    }
    // The guest must still be calling when the fiber is interrupted: with the default limit of 1 000
    // calls, fast round trips would end it with ToolCallLimitExceeded before the 200 ms are up.
    const outcome = await Effect.runPromiseExit(
      executeEffect("while (true) { await tools.t.tick() }", { tools, timeoutMs: 10_000, maxToolCalls: 1_000_000 }).pipe(
        Effect.timeout("200 millis")
      )
    )
    expect(outcome._tag).toBe("Failure")
    const atInterrupt = calls
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(calls - atInterrupt).toBeLessThanOrEqual(1)
  })
})
