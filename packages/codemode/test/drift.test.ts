import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { execute, type ToolTree } from "../src/index.js"
import { tool } from "./support/tools.js"

const TICK_MS = 10

/** The worst delay of a 10 ms host timer beyond its period while a guest spins for 2 s. */
const driftWhileGuestSpins = async (): Promise<number> => {
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
        }, TICK_MS)
        return null
      })
    }
  }
  const result = await execute("await tools.probe.spinning(); while (true) {}", { tools, timeoutMs: 2_000 })
  clearInterval(ticker)
  expect(result.status).toBe("timeout")
  expect(worstGap).toBeGreaterThan(0)
  return worstGap - TICK_MS
}

describe("host event loop", () => {
  it("keeps the host event loop responsive while a guest spins for 2 s", async () => {
    // A guest running on the host thread would block the timer for the whole 2 s in every
    // attempt; other processes on a busy machine only delay it now and then. So the best of three
    // attempts is held to the bound.
    const drifts: Array<number> = []
    for (let attempt = 0; attempt < 3 && !drifts.some((drift) => drift <= 50); attempt++) {
      drifts.push(await driftWhileGuestSpins())
    }
    expect(Math.min(...drifts)).toBeLessThanOrEqual(50)
  }, 30_000)
})
