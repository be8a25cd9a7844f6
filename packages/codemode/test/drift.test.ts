import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { execute, type ToolTree } from "../src/index.js"
import { tool } from "./support/tools.js"

const TICK_MS = 10
const SPIN_MS = 2_000

/** How many times a 10 ms host timer fired while a guest spun until its deadline. */
const hostTicksWhileGuestSpins = async (): Promise<number> => {
  let ticks = 0
  let ticker: NodeJS.Timeout | undefined
  const tools: ToolTree = {
    probe: {
      spinning: tool(Schema.Void, async () => {
        // Count only once the guest is about to spin, so worker start-up is not counted.
        ticker = setInterval(() => ticks++, TICK_MS)
        return null
      })
    }
  }
  const result = await execute("await tools.probe.spinning(); while (true) {}", { tools, timeoutMs: SPIN_MS })
  clearInterval(ticker)
  expect(result.status).toBe("timeout")
  return ticks
}

describe("host event loop", () => {
  it("keeps running host timers while a guest spins", async () => {
    // A guest on the host thread would block the loop from the tool's answer to the deadline, so
    // the timer could fire at most once; off the host thread it fires about SPIN_MS / TICK_MS (200)
    // times, and even a very busy machine lets it fire a tenth of that.
    expect(await hostTicksWhileGuestSpins()).toBeGreaterThanOrEqual(SPIN_MS / TICK_MS / 10)
  }, 30_000)
})
