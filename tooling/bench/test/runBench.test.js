import { mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it, vi } from "vitest"
import { runBench } from "../src/index.js"

const busyWait = (iterations) => {
  let total = 0
  for (let index = 0; index < iterations; index++) total += Math.sqrt(index)
  return total
}

describe("runBench", () => {
  it("measures ours and the anchor in one run, prints the ratio and writes the JSON report", async () => {
    const outputDir = mkdtempSync(join(tmpdir(), "armory-bench-"))
    const printed = []
    const write = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      printed.push(String(chunk))
      return true
    })
    try {
      const report = await runBench({
        name: "sample",
        anchor: "a loop 200 times longer",
        timeMs: 100,
        warmupMs: 20,
        outputDir,
        cases: [
          { name: "sqrt loop", ours: () => busyWait(2_000), anchor: () => busyWait(400_000), target: { ratio: 2 } },
          { name: "unreachable", ours: () => busyWait(2_000), anchor: () => busyWait(2_000), target: { medianMs: 0 } }
        ]
      })
      const [row] = report.cases
      expect(row.ours.samples).toBeGreaterThan(0)
      expect(row.anchor.samples).toBeGreaterThan(0)
      expect(row.ratio).toBeCloseTo(row.anchor.medianMs / row.ours.medianMs, 10)
      expect(row.ratio).toBeGreaterThan(1)
      const saved = JSON.parse(readFileSync(join(outputDir, "sample.json"), "utf8"))
      expect(saved.cases[0].ratio).toBe(row.ratio)
      expect(saved.anchor).toBe("a loop 200 times longer")
      const table = printed.join("")
      expect(table).toContain("sample: ours vs. a loop 200 times longer")
      expect(table).toMatch(/sqrt loop\s+\S+ [µm]s\s+\S+ [µm]s\s+\d+\.\d\d×\s+≥ 2×: met/)
      expect(table).toMatch(/unreachable .*≤ 0\.00 µs: MISSED/)
      expect(report.cases.map((entry) => entry.targetMet)).toEqual([true, false])
    } finally {
      write.mockRestore()
    }
  })

  it("fails loudly when a case throws instead of reporting a figure", async () => {
    const outputDir = mkdtempSync(join(tmpdir(), "armory-bench-"))
    await expect(
      runBench({
        name: "broken",
        anchor: "anything",
        timeMs: 20,
        warmupMs: 0,
        outputDir,
        cases: [{ name: "throws", ours: () => { throw new Error("boom") }, anchor: () => 1 }]
      })
    ).rejects.toThrow(/ours.*boom|boom/)
  })
})
