// Adds up the vitest JSON reports (`<package>/test-results/vitest.json`) of every workspace
// package and prints one closing line: `tests: N passed, N failed`, followed by what was skipped
// and why. A skip is legitimate only when the user opted out of a component (`ARMORY_TEST_SKIP`,
// marked in the suite's title); a test that did not run because its suite's hook failed counts as
// failed, and a file that failed on its own (an import error, an `afterAll`) counts once. Exits
// non-zero when anything failed, when a skip has no opt-out behind it, when a package that has a
// test script left no report, or when nothing ran.
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { OPT_OUT_MARKER, OPT_OUT_VARIABLE } from "../config/components.js"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..")
const REPORT = join("test-results", "vitest.json")
const NOT_RUN = new Set(["skipped", "pending", "todo", "disabled"])

/** Every workspace package directory with a `test` script. */
export const testedPackages = (workspaceRoot = root) =>
  ["packages", "apps", "tooling"].flatMap((group) => {
    const groupDir = join(workspaceRoot, group)
    if (!existsSync(groupDir)) return []
    return readdirSync(groupDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(groupDir, entry.name))
      .filter((dir) => {
        const manifest = join(dir, "package.json")
        return existsSync(manifest) && JSON.parse(readFileSync(manifest, "utf8")).scripts?.test !== undefined
      })
  })

/** Removes earlier reports so a package that fails to start cannot be counted with stale figures. */
export const clearReports = (workspaceRoot = root) => {
  for (const dir of testedPackages(workspaceRoot)) rmSync(join(dir, "test-results"), { recursive: true, force: true })
}

const optedOutComponent = (assertion) =>
  [...(assertion.ancestorTitles ?? []), assertion.title ?? ""].map((title) => OPT_OUT_MARKER.exec(title)?.[1]).find(Boolean)

/** Adds one package's report to the totals. */
const addReport = (totals, report, packageName) => {
  for (const file of report.testResults ?? []) {
    let failedHere = 0
    for (const assertion of file.assertionResults ?? []) {
      if (assertion.status === "passed") {
        totals.passed += 1
      } else if (assertion.status === "failed") {
        failedHere += 1
      } else if (NOT_RUN.has(assertion.status)) {
        const component = optedOutComponent(assertion)
        if (component !== undefined) {
          totals.optedOut[component] = (totals.optedOut[component] ?? 0) + 1
        } else if (file.status === "failed") {
          // A failing beforeAll leaves its suite's tests unrun; they failed with it.
          failedHere += 1
        } else {
          totals.unexplained.push(`${packageName}: ${assertion.fullName ?? assertion.title}`)
        }
      }
    }
    if (file.status === "failed" && failedHere === 0) failedHere = 1
    totals.failed += failedHere
  }
}

export const summarise = (workspaceRoot = root) => {
  const totals = { passed: 0, failed: 0, optedOut: {}, unexplained: [], missing: [] }
  for (const dir of testedPackages(workspaceRoot)) {
    const reportPath = join(dir, REPORT)
    if (!existsSync(reportPath)) {
      totals.missing.push(relative(workspaceRoot, dir))
      continue
    }
    addReport(totals, JSON.parse(readFileSync(reportPath, "utf8")), relative(workspaceRoot, dir))
  }
  return totals
}

/** `tests: N passed, N failed`, then any skips with their reason. */
export const summaryLine = ({ passed, failed, optedOut, unexplained }) => {
  const parts = [`tests: ${passed} passed, ${failed} failed`]
  const optedOutEntries = Object.entries(optedOut)
  if (optedOutEntries.length > 0) {
    const count = optedOutEntries.reduce((sum, [, skipped]) => sum + skipped, 0)
    const which = optedOutEntries.map(([component, skipped]) => `${component} ${skipped}`).join(", ")
    parts.push(`${count} skipped because ${OPT_OUT_VARIABLE} opted out of ${which} — not a full run`)
  }
  if (unexplained.length > 0) parts.push(`${unexplained.length} skipped with no opt-out behind them`)
  return parts.join(", ")
}

/** Whether the run counts as green: something ran, nothing failed, every skip was asked for. */
export const passedRun = (totals) =>
  totals.failed === 0 && totals.unexplained.length === 0 && totals.missing.length === 0 && totals.passed > 0

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv[2] === "--clear") {
    clearReports()
  } else {
    const totals = summarise()
    for (const dir of totals.missing) process.stderr.write(`test summary: ${dir} left no ${REPORT}\n`)
    for (const test of totals.unexplained) process.stderr.write(`test summary: skipped with no opt-out: ${test}\n`)
    process.stdout.write(`${summaryLine(totals)}\n`)
    process.exit(passedRun(totals) ? 0 : 1)
  }
}
