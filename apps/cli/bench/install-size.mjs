// `pnpm bench`: what `npm install @armory/cli` puts on a user's disk — packages and bytes under
// node_modules, the CLI installed from its packed tarballs — beside `@playwright/mcp` (the browser
// MCP server agent hosts install the same way, with the same Playwright inside) installed from the
// npm registry in the same run. The target is at most 40 MiB. Prints both and their ratio and writes
// bench-results/install-size.json. Needs a build (`pnpm build`) first.
import { execFileSync } from "node:child_process"
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { installedSize, installPackedArmoryPackage } from "@armory/config/installed"

const TARGET_BYTES = 40 * 1024 * 1024
const INSTALL_TIMEOUT_MS = 300_000
const workspaceRoot = join(import.meta.dirname, "..", "..", "..")
const mib = (bytes) => Number((bytes / 1024 / 1024).toFixed(1))

const ours = mkdtempSync(join(tmpdir(), "armory-install-size-"))
const anchor = mkdtempSync(join(tmpdir(), "armory-install-size-anchor-"))
try {
  await installPackedArmoryPackage(workspaceRoot, "@armory/cli", ours, { timeoutMs: INSTALL_TIMEOUT_MS })
  const anchorVersion = JSON.parse(readFileSync(join(import.meta.dirname, "..", "node_modules", "@playwright", "mcp", "package.json"), "utf8")).version
  writeFileSync(join(anchor, "package.json"), `${JSON.stringify({ name: "install-size-anchor", private: true }, null, 2)}\n`)
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", `@playwright/mcp@${anchorVersion}`], { cwd: anchor, timeout: INSTALL_TIMEOUT_MS, stdio: "ignore" })

  const ourSize = installedSize(join(ours, "node_modules"))
  const anchorSize = installedSize(join(anchor, "node_modules"))
  const row = {
    case: "npm install, node_modules",
    ours: { packages: ourSize.packages, mib: mib(ourSize.bytes), largest: ourSize.largest.map((entry) => ({ name: entry.name, mib: mib(entry.bytes) })) },
    anchor: { package: `@playwright/mcp@${anchorVersion}`, packages: anchorSize.packages, mib: mib(anchorSize.bytes) },
    ratio: Number((ourSize.bytes / anchorSize.bytes).toFixed(2)),
    target: { maxMiB: mib(TARGET_BYTES) },
    targetMet: ourSize.bytes <= TARGET_BYTES
  }
  const report = { suite: "install-size", anchor: "@playwright/mcp from the npm registry", ratio: "ours bytes / anchor bytes", node: process.version, date: new Date().toISOString(), cases: [row] }
  const outputDir = join(import.meta.dirname, "..", "bench-results")
  mkdirSync(outputDir, { recursive: true })
  writeFileSync(join(outputDir, "install-size.json"), `${JSON.stringify(report, null, 2)}\n`)
  process.stdout.write(
    `install size  @armory/cli ${row.ours.packages} packages ${row.ours.mib} MiB  ${row.anchor.package} ${row.anchor.packages} packages ${row.anchor.mib} MiB  ` +
      `ratio ${row.ratio}  ${row.targetMet ? "met" : "missed"} (<= ${row.target.maxMiB} MiB)\n`
  )
} finally {
  rmSync(ours, { recursive: true, force: true })
  rmSync(anchor, { recursive: true, force: true })
}
