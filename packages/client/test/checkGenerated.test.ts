import { execFileSync, spawnSync } from "node:child_process"
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"

const packageDir = join(import.meta.dirname, "..")
const workspace = join(packageDir, "..", "..")

/**
 * A git repository holding a copy of this package (its sources and committed artifacts) beside the
 * shared tooling, with the installed dependencies linked in — except the contract, `@armory/api`,
 * whose build is copied (beside its own dependencies) so that a test can change it: `check:generated`
 * runs there exactly as it does in the workspace.
 */
const copyOfPackage = () => {
  const root = mkdtempSync(join(tmpdir(), "armory-client-generated-"))
  const copy = join(root, "packages", "client")
  for (const entry of ["package.json", "openapi.json", "scripts", "src", "tsconfig.json"]) {
    cpSync(join(packageDir, entry), join(copy, entry), { recursive: true })
  }
  const installed = join(packageDir, "node_modules")
  const linked = join(copy, "node_modules")
  mkdirSync(join(linked, "@armory"), { recursive: true })
  for (const entry of readdirSync(installed)) {
    if (entry !== "@armory") symlinkSync(realpathSync(join(installed, entry)), join(linked, entry))
  }
  for (const entry of readdirSync(join(installed, "@armory"))) {
    if (entry !== "api") symlinkSync(realpathSync(join(installed, "@armory", entry)), join(linked, "@armory", entry))
  }
  const contract = realpathSync(join(installed, "@armory", "api"))
  for (const entry of ["package.json", "dist"]) cpSync(join(contract, entry), join(linked, "@armory", "api", entry), { recursive: true })
  // The copied build resolves what it imports (the goal store's Schemas) from the contract's own dependencies.
  symlinkSync(join(contract, "node_modules"), join(linked, "@armory", "api", "node_modules"))
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
  it("passes on the committed artifacts and fails, with the diff and the fix, once a contract's field changes", () => {
    const { root, copy, check } = copyOfPackage()
    roots.push(root)
    const fresh = check()
    expect(fresh.stderr).toBe("")
    expect(fresh.status).toBe(0)

    // The contract's `Health` gains a field, as a change to the contract's source would after its build.
    const contract = join(copy, "node_modules", "@armory", "api", "dist", "index.js")
    const source = readFileSync(contract, "utf8")
    expect(source).toContain("  version: Schema.String.annotate(")
    writeFileSync(contract, source.replace("  version: Schema.String.annotate(", "  uptimeSeconds: Schema.Number,\n  version: Schema.String.annotate("))
    const stale = check()
    expect(stale.status).toBe(1)
    expect(stale.stderr).toContain("openapi.json")
    expect(stale.stderr).toMatch(/^\+\s+"uptimeSeconds": \{$/m)
    expect(stale.stderr).toContain("src/generated/openapi.ts")
    expect(stale.stderr).toMatch(/^\+\s+uptimeSeconds: number/m)
    expect(stale.stderr).toContain("pnpm --filter @armory/client generate")
  }, 120_000)
})
