import { Schema } from "effect"
import { afterAll, afterEach, describe, expect, it } from "vitest"
import { execute, type ToolTree } from "../src/index.js"
import { makeSandboxPool } from "../src/internal/SandboxPool.js"
import { tool } from "./support/tools.js"

const LIMITS = { timeoutMs: 5_000, memoryLimitBytes: 32 * 1024 * 1024, maxStackBytes: 1024 * 1024, maxLogLines: 200, maxResultBytes: 65_536, maxInputBytes: 1024 * 1024 }

const unhandled: Array<unknown> = []
const onUnhandled = (reason: unknown) => unhandled.push(reason)
process.on("unhandledRejection", onUnhandled)

afterEach(() => {
  unhandled.length = 0
})

afterAll(() => {
  process.off("unhandledRejection", onUnhandled)
})

describe("a failing host side of a tool call", () => {
  it("answers the guest when the internal error reporter throws", async () => {
    const tools: ToolTree = {
      t: {
        boom: tool(Schema.Void, async () => {
          throw new Error("hidden")
        }),
        denied: tool(Schema.Void, async () => 1)
      }
    }
    const result = await execute(
      "return (await Promise.allSettled([tools.t.boom(), tools.t.denied()])).map((entry) => entry.reason._tag)",
      {
        tools,
        timeoutMs: 2_000,
        authorize: ({ path }) => {
          if (path === "t.denied") throw new Error("authorize failed")
          return true
        },
        onInternalError: () => {
          throw new Error("reporter failed")
        }
      }
    )
    expect(result).toMatchObject({ status: "completed", result: ["InternalToolError", "ToolCallDenied"] })
    expect(unhandled).toEqual([])
  })

  it("answers the guest with an internal tool error when dispatch itself rejects", async () => {
    const pool = makeSandboxPool({ maxWorkers: 1 })
    const outcome = await pool.run({
      code: "try { await tools.t.any() } catch (error) { return [error._tag, error.message] }",
      globals: [],
      limits: LIMITS,
      deadline: Date.now() + LIMITS.timeoutMs,
      onCall: () => Promise.reject(new Error("dispatch failed"))
    })
    await pool.close()
    expect(outcome).toMatchObject({ status: "completed", resultJson: JSON.stringify(["InternalToolError", "internal tool error [dispatch]"]) })
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(unhandled).toEqual([])
  })
})
