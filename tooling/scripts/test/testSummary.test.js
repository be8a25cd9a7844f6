import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { clearReports, summarise, summaryLine } from "../test-summary.mjs"

const workspace = () => {
  const root = mkdtempSync(join(tmpdir(), "armory-summary-"))
  const addPackage = (group, name, { tested = true, report } = {}) => {
    const dir = join(root, group, name)
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name, scripts: tested ? { test: "vitest run" } : {} }))
    if (report !== undefined) {
      mkdirSync(join(dir, "test-results"), { recursive: true })
      writeFileSync(join(dir, "test-results", "vitest.json"), JSON.stringify(report))
    }
    return dir
  }
  return { root, addPackage }
}

const report = (passed, failed, pending = 0) => ({
  numPassedTests: passed,
  numFailedTests: failed,
  numPendingTests: pending,
  numTodoTests: 0
})

describe("test summary", () => {
  it("adds up every tested package's vitest report", () => {
    const { root, addPackage } = workspace()
    addPackage("packages", "a", { report: report(5, 0) })
    addPackage("apps", "cli", { report: report(3, 1, 2) })
    addPackage("tooling", "config", { tested: false })
    const totals = summarise(root)
    expect(totals).toEqual({ passed: 8, failed: 1, skipped: 2, missing: [] })
    expect(summaryLine(totals)).toBe("tests: 8 passed, 1 failed, 2 skipped")
  })

  it("names a tested package that left no report instead of counting it as passed", () => {
    const { root, addPackage } = workspace()
    addPackage("packages", "a", { report: report(2, 0) })
    addPackage("packages", "silent")
    expect(summarise(root).missing).toEqual([join("packages", "silent")])
  })

  it("prints the closing line without a skipped count when nothing was skipped", () => {
    expect(summaryLine({ passed: 12, failed: 0, skipped: 0 })).toBe("tests: 12 passed, 0 failed")
  })

  it("clears earlier reports so stale figures cannot be counted", () => {
    const { root, addPackage } = workspace()
    const dir = addPackage("packages", "a", { report: report(2, 0) })
    clearReports(root)
    expect(existsSync(join(dir, "test-results"))).toBe(false)
    expect(summarise(root).missing).toEqual([join("packages", "a")])
  })
})
