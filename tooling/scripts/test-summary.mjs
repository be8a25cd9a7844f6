// Adds up the vitest JSON reports (`<package>/test-results/vitest.json`) of every workspace
// package and prints one closing line: `tests: N passed, N failed[, N skipped]`. Exits non-zero
// when a test failed, when a package that has a test script left no report, or when nothing ran.
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..")
const REPORT = join("test-results", "vitest.json")

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

export const summarise = (workspaceRoot = root) => {
  const totals = { passed: 0, failed: 0, skipped: 0, missing: [] }
  for (const dir of testedPackages(workspaceRoot)) {
    const reportPath = join(dir, REPORT)
    if (!existsSync(reportPath)) {
      totals.missing.push(relative(workspaceRoot, dir))
      continue
    }
    const report = JSON.parse(readFileSync(reportPath, "utf8"))
    totals.passed += report.numPassedTests
    totals.failed += report.numFailedTests
    totals.skipped += report.numPendingTests + (report.numTodoTests ?? 0)
  }
  return totals
}

export const summaryLine = ({ passed, failed, skipped }) =>
  `tests: ${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ""}`

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv[2] === "--clear") {
    clearReports()
  } else {
    const totals = summarise()
    for (const dir of totals.missing) process.stderr.write(`test summary: ${dir} left no ${REPORT}\n`)
    process.stdout.write(`${summaryLine(totals)}\n`)
    const ok = totals.failed === 0 && totals.missing.length === 0 && totals.passed > 0
    process.exit(ok ? 0 : 1)
  }
}
