import { execFileSync, spawnSync } from "node:child_process"
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

const checkGenerated = join(import.meta.dirname, "..", "check-generated.mjs")

/** A git repository holding one package whose generator writes `generated/schema.json` from `source.json`. */
const repository = () => {
  const root = mkdtempSync(join(tmpdir(), "armory-generated-"))
  const git = (...args) => execFileSync("git", args, { cwd: root, encoding: "utf8" })
  git("init", "--quiet")
  git("config", "user.email", "check@example.invalid")
  git("config", "user.name", "check")
  writeFileSync(
    join(root, "package.json"),
    JSON.stringify({
      name: "@armory/sample",
      scripts: { generate: "node generate.mjs" }
    })
  )
  writeFileSync(
    join(root, "generate.mjs"),
    'import { readFileSync, mkdirSync, writeFileSync } from "node:fs"\n' +
      'mkdirSync("generated", { recursive: true })\n' +
      'writeFileSync("generated/schema.json", JSON.stringify(JSON.parse(readFileSync("source.json", "utf8")), null, 2) + "\\n")\n'
  )
  writeFileSync(join(root, "source.json"), JSON.stringify({ field: "string" }))
  mkdirSync(join(root, "generated"))
  execFileSync(process.execPath, ["--run", "generate"], { cwd: root })
  git("add", ".")
  git("commit", "--quiet", "-m", "initial")
  const check = () => spawnSync(process.execPath, [checkGenerated, "generated"], { cwd: root, encoding: "utf8" })
  return { root, check }
}

describe("check-generated", () => {
  it("passes when the committed artifact matches what the generator writes", () => {
    const { check } = repository()
    const result = check()
    expect(result.status).toBe(0)
    expect(result.stdout).toContain("up to date")
  })

  it("fails on a schema change that was not regenerated, printing the diff and the fix command", () => {
    const { root, check } = repository()
    writeFileSync(join(root, "source.json"), JSON.stringify({ field: "string", icon: "url" }))
    const result = check()
    expect(result.status).toBe(1)
    expect(result.stderr).toContain("generated/schema.json")
    expect(result.stderr).toContain('+  "icon": "url"')
    expect(result.stderr).toContain("pnpm --filter @armory/sample generate")
  })

  it("fails when a generated file is new and uncommitted", () => {
    const { root, check } = repository()
    writeFileSync(
      join(root, "generate.mjs"),
      'import { mkdirSync, writeFileSync } from "node:fs"\nmkdirSync("generated", { recursive: true })\n' +
        'writeFileSync("generated/schema.json", "{\\n  \\"field\\": \\"string\\"\\n}\\n")\nwriteFileSync("generated/extra.ts", "export {}\\n")\n'
    )
    const result = check()
    expect(result.status).toBe(1)
    expect(result.stderr).toContain("generated/extra.ts")
  })
})
