import { describe, expect, it } from "vitest"
import { runInChild } from "./support/child.js"

describe("200 concurrent executions of mixed scripts", () => {
  it("all end with the right status, never see another's result, and the host exits by itself once the pool closes", async () => {
    const run = await runInChild(`
      import { createSandboxPool } from "@armory/codemode"
      import { Schema } from "effect"
      const pool = createSandboxPool()
      const tools = { t: { echo: { description: "echo", input: Schema.Unknown, run: async (value) => value } } }
      const kinds = ["trivial", "spin", "bomb", "tools"]
      const script = {
        trivial: (id) => "return " + id,
        spin: () => "while (true) {}",
        bomb: () => "const kept = []; for (;;) kept.push(new ArrayBuffer(1 << 20))",
        tools: (id) => "const got = await Promise.all(Array.from({ length: 20 }, (_, i) => tools.t.echo({ id: " + id + ", i }))); return got.every((entry) => entry.id === " + id + ") ? " + id + " : -1"
      }
      const limits = { trivial: 30000, spin: 200, bomb: 30000, tools: 30000 }
      const runs = Array.from({ length: 200 }, (_, id) => {
        const kind = kinds[id % kinds.length]
        return pool.execute(script[kind](id), { tools, timeoutMs: limits[kind] }).then((result) => ({ id, kind, status: result.status, tag: result.error?._tag ?? null, result: result.result ?? null }))
      })
      const outcomes = await Promise.all(runs)
      await pool.close()
      console.log(JSON.stringify(outcomes))
      // Nothing more: the process must end on its own now that the pool is closed.
    `)
    expect({ code: run.code, signal: run.signal, stderr: run.stderr }).toEqual({ code: 0, signal: null, stderr: "" })
    const outcomes = run.report as ReadonlyArray<{ id: number; kind: string; status: string; tag: string | null; result: unknown }>
    expect(outcomes).toHaveLength(200)
    const wrong = outcomes.filter((outcome) => {
      switch (outcome.kind) {
        case "trivial":
        case "tools":
          return outcome.status !== "completed" || outcome.result !== outcome.id
        case "spin":
          return outcome.status !== "timeout" || outcome.tag !== "Timeout"
        default:
          return outcome.status !== "error" || outcome.tag !== "MemoryLimitExceeded"
      }
    })
    expect(wrong).toEqual([])
  }, 300_000)
})
