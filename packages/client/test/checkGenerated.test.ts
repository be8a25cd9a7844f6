import { execFileSync, spawnSync } from "node:child_process"
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"

const packageDir = join(import.meta.dirname, "..")
const workspace = join(packageDir, "..", "..")

/**
 * A git repository holding a copy of this package (its sources and committed artifacts) beside the
 * shared tooling, with the installed dependencies linked in: `check:generated` runs there exactly
 * as it does in the workspace.
 */
const copyOfPackage = () => {
  const root = mkdtempSync(join(tmpdir(), "armory-client-generated-"))
  const copy = join(root, "packages", "client")
  for (const entry of ["package.json", "openapi.json", "scripts", "src", "tsconfig.json"]) {
    cpSync(join(packageDir, entry), join(copy, entry), { recursive: true })
  }
  symlinkSync(join(packageDir, "node_modules"), join(copy, "node_modules"))
  symlinkSync(join(workspace, "tooling"), join(root, "tooling"))
  writeFileSync(join(root, ".gitignore"), "node_modules\ntooling\n")
  const git = (...args: Array<string>) => execFileSync("git", args, { cwd: root, encoding: "utf8" })
  git("init", "--quiet")
  git("config", "user.email", "check@example.invalid")
  git("config", "user.name", "check")
  git("add", ".")
  git("commit", "--quiet", "-m", "committed artifacts")
  const check = () => spawnSync(process.execPath, ["--run", "check:generated"], { cwd: copy, encoding: "utf8" })
  return { root, copy, check }
}

const roots: Array<string> = []
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true })
})

describe("check:generated", () => {
  it("passes on the committed artifacts and fails, with the diff and the fix, once a schema field changes", () => {
    const { root, copy, check } = copyOfPackage()
    roots.push(root)
    const fresh = check()
    expect(fresh.stderr).toBe("")
    expect(fresh.status).toBe(0)

    const health = join(copy, "src", "Health.ts")
    writeFileSync(
      health,
      readFileSync(health, "utf8").replace("version: Schema.String", "version: Schema.String,\n  uptimeSeconds: Schema.Number")
    )
    const stale = check()
    expect(stale.status).toBe(1)
    expect(stale.stderr).toContain("openapi.json")
    expect(stale.stderr).toMatch(/^\+\s+"uptimeSeconds": \{$/m)
    expect(stale.stderr).toContain("src/generated/openapi.ts")
    expect(stale.stderr).toMatch(/^\+\s+uptimeSeconds: number/m)
    expect(stale.stderr).toContain("pnpm --filter @armory/client generate")
  }, 120_000)
})
