import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { execute, type ToolTree } from "../src/index.js"
import { tool } from "./support/tools.js"

describe("host event loop", () => {
  it("keeps the host event loop responsive while a guest spins for 2 s", async () => {
    let worstGap = 0
    let ticker: NodeJS.Timeout | undefined
    const tools: ToolTree = {
      probe: {
        spinning: tool(Schema.Void, async () => {
          // Measure only once the guest is about to spin, so worker start-up is not counted.
          let last = performance.now()
          ticker = setInterval(() => {
            const now = performance.now()
            worstGap = Math.max(worstGap, now - last)
            last = now
          }, 10)
          return null
        })
      }
    }
    const result = await execute("await tools.probe.spinning(); while (true) {}", { tools, timeoutMs: 2_000 })
    clearInterval(ticker)
    expect(result.status).toBe("timeout")
    expect(worstGap).toBeGreaterThan(0)
    // The coarse bound: a 10 ms timer never drifts by more than 50 ms.
    expect(worstGap - 10).toBeLessThanOrEqual(50)
  })
})
