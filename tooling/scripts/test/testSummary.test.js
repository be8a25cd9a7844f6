import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { clearReports, passedRun, summarise, summaryLine } from "../test-summary.mjs"

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

const assertion = (status, title, ancestorTitles = ["suite"]) => ({ status, title, ancestorTitles, fullName: [...ancestorTitles, title].join(" ") })

/** A vitest JSON report with one file holding the given assertions. */
const report = (assertions, status = assertions.some((entry) => entry.status === "failed") ? "failed" : "passed") => ({
  testResults: [{ name: "/x/test/a.test.ts", status, assertionResults: assertions }]
})

const times = (count, status, title = "t", ancestors) => Array.from({ length: count }, (_, index) => assertion(status, `${title}${index}`, ancestors))

describe("test summary", () => {
  it("adds up every tested package's vitest report", () => {
    const { root, addPackage } = workspace()
    addPackage("packages", "a", { report: report(times(5, "passed")) })
    addPackage("apps", "cli", { report: report([...times(3, "passed"), assertion("failed", "broken")]) })
    addPackage("tooling", "config", { tested: false })
    const totals = summarise(root)
    expect(totals).toEqual({ passed: 8, failed: 1, optedOut: {}, unexplained: [], missing: [] })
    expect(summaryLine(totals)).toBe("tests: 8 passed, 1 failed")
    expect(passedRun(totals)).toBe(false)
  })

  it("names a tested package that left no report instead of counting it as passed", () => {
    const { root, addPackage } = workspace()
    addPackage("packages", "a", { report: report(times(2, "passed")) })
    addPackage("packages", "silent")
    const totals = summarise(root)
    expect(totals.missing).toEqual([join("packages", "silent")])
    expect(passedRun(totals)).toBe(false)
  })

  it("says which components were opted out and how many tests that skipped, and still passes", () => {
    const { root, addPackage } = workspace()
    const browser = ["real Chromium [opted out: ARMORY_TEST_SKIP=browser]"]
    const pg = ["PostgreSQL [opted out: ARMORY_TEST_SKIP=pg]", "nested"]
    addPackage("packages", "a", { report: report([...times(4, "passed"), ...times(3, "skipped", "b", browser), ...times(2, "pending", "p", pg)]) })
    const totals = summarise(root)
    expect(totals).toMatchObject({ passed: 4, failed: 0, optedOut: { browser: 3, pg: 2 }, unexplained: [] })
    expect(summaryLine(totals)).toBe("tests: 4 passed, 0 failed, 5 skipped because ARMORY_TEST_SKIP opted out of browser 3, pg 2 — not a full run")
    expect(passedRun(totals)).toBe(true)
  })

  it("fails a run with a skip nobody asked for, naming the test", () => {
    const { root, addPackage } = workspace()
    addPackage("packages", "a", { report: report([...times(2, "passed"), assertion("skipped", "needs chromium", ["browser"])]) })
    const totals = summarise(root)
    expect(totals.unexplained).toEqual([`${join("packages", "a")}: browser needs chromium`])
    expect(summaryLine(totals)).toBe("tests: 2 passed, 0 failed, 1 skipped with no opt-out behind them")
    expect(passedRun(totals)).toBe(false)
  })

  it("counts the tests a failed beforeAll left unrun as failed, and a file that failed on its own once", () => {
    const { root, addPackage } = workspace()
    addPackage("packages", "a", { report: report(times(3, "skipped"), "failed") })
    addPackage("packages", "b", { report: report([], "failed") })
    addPackage("packages", "c", { report: report(times(2, "passed"), "failed") })
    const totals = summarise(root)
    expect(totals).toMatchObject({ passed: 2, failed: 5, unexplained: [] })
    expect(passedRun(totals)).toBe(false)
  })

  it("does not pass a run in which nothing ran", () => {
    const { root, addPackage } = workspace()
    addPackage("packages", "a", { report: report([]) })
    expect(passedRun(summarise(root))).toBe(false)
  })

  it("clears earlier reports so stale figures cannot be counted", () => {
    const { root, addPackage } = workspace()
    const dir = addPackage("packages", "a", { report: report(times(2, "passed")) })
    clearReports(root)
    expect(existsSync(join(dir, "test-results"))).toBe(false)
    expect(summarise(root).missing).toEqual([join("packages", "a")])
  })
})
