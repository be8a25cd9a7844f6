import { spawnSync } from "node:child_process"
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { passedRun, summarise, summaryLine } from "../test-summary.mjs"

// A throwaway workspace inside this package (so that vitest and @armory/config resolve), holding
// one tested package whose suite needs a browser next to a suite that needs nothing.
const workspace = mkdtempSync(join(import.meta.dirname, "..", ".opt-outs-"))
afterAll(() => rmSync(workspace, { recursive: true, force: true }))
const pkg = join(workspace, "packages", "sample")
mkdirSync(join(pkg, "test"), { recursive: true })
writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: "sample", type: "module", scripts: { test: "vitest run" } }))
writeFileSync(
  join(pkg, "test", "sample.test.js"),
  `import { describeRequiring } from "@armory/config/test-components"
import { describe, expect, it } from "vitest"
describe("needs nothing", () => { it("adds", () => expect(1 + 1).toBe(2)) })
describeRequiring("browser", "drives Chromium", () => {
  it("opens a page", () => expect(true).toBe(true))
  it("clicks", () => expect(true).toBe(true))
})
`
)
const vitest = join(import.meta.dirname, "..", "node_modules", ".bin", "vitest")

/** Runs the sample package's suite as `npm test` would, then summarises the workspace. */
const runSample = (env) => {
  const run = spawnSync(vitest, ["run", "--root", pkg, "--reporter=json", "--outputFile=test-results/vitest.json"], {
    encoding: "utf8",
    env: { ...process.env, ARMORY_TEST_SKIP: "", ...env }
  })
  const totals = summarise(workspace)
  const report = JSON.parse(readFileSync(join(pkg, "test-results", "vitest.json"), "utf8"))
  return { status: run.status, totals, report }
}

describe("a suite that needs a component", () => {
  it("fails, naming what is missing, when Chromium is not there; never skips", () => {
    const { status, totals, report } = runSample({ ARMORY_CHROMIUM: join(workspace, "no-chromium") })
    expect(status).toBe(1)
    expect(totals).toMatchObject({ passed: 1, failed: 1, optedOut: {}, unexplained: [] })
    expect(passedRun(totals)).toBe(false)
    const failure = report.testResults[0].assertionResults.find((assertion) => assertion.status === "failed")
    expect(failure.fullName).toBe("drives Chromium needs a headless Chromium")
    expect(failure.failureMessages[0]).toContain(`no executable Chromium at ${join(workspace, "no-chromium")} (from ARMORY_CHROMIUM)`)
  })

  it("is skipped only when the user opted out, and the summary says so", () => {
    const { status, totals } = runSample({ ARMORY_CHROMIUM: join(workspace, "no-chromium"), ARMORY_TEST_SKIP: "browser" })
    expect(status).toBe(0)
    expect(totals).toMatchObject({ passed: 1, failed: 0, optedOut: { browser: 2 }, unexplained: [] })
    expect(summaryLine(totals)).toBe("tests: 1 passed, 0 failed, 2 skipped because ARMORY_TEST_SKIP opted out of browser 2 — not a full run")
    expect(passedRun(totals)).toBe(true)
  })

  it("runs when the component is there", () => {
    const { status, totals } = runSample({ ARMORY_CHROMIUM: process.execPath })
    expect(status).toBe(0)
    expect(totals).toMatchObject({ passed: 3, failed: 0, optedOut: {} })
  })

  it("fails the file for an opt-out that names no component", () => {
    const { status, totals, report } = runSample({ ARMORY_TEST_SKIP: "chrome" })
    expect(status).toBe(1)
    expect(passedRun(totals)).toBe(false)
    expect(report.testResults[0].message).toContain('ARMORY_TEST_SKIP names "chrome", which is not a component')
  })
})
