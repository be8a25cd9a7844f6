import { execFileSync, spawnSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { satisfiesMinimum } from "../node-version.mjs"

const root = join(import.meta.dirname, "..", "..", "..")
const bootstrap = join(root, "tooling", "scripts", "bootstrap.mjs")
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"))

const exec = (...args) =>
  execFileSync(process.execPath, [bootstrap, "exec", ...args], { cwd: root, encoding: "utf8" }).trim()

describe("bootstrap", () => {
  it("runs commands with a Node the workspace supports first on PATH", () => {
    const version = exec("node", "-p", "process.versions.node")
    expect(satisfiesMinimum(version, manifest.engines.node.replace(">=", ""))).toBe(true)
  })

  it("provides pnpm at exactly the version pinned in packageManager", () => {
    expect(`pnpm@${exec("pnpm", "--version")}`).toBe(manifest.packageManager)
  })

  it("refuses an unknown command with a message naming it", () => {
    const result = spawnSync(process.execPath, [bootstrap, "deploy"], { cwd: root, encoding: "utf8" })
    expect(result.status).toBe(1)
    expect(result.stderr).toContain('unknown command "deploy"')
  })
})
