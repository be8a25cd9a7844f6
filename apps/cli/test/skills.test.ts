import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { armory } from "./support/armory.js"

const examples = join(import.meta.dirname, "..", "..", "..", "examples", "skills")
const exampleNames = ["browser-drive", "comment-checker", "goal-runtime", "google-docs", "korean-summary", "pdf-tools"]
const brokenReason = 'frontmatter rejected: at ["slash"]: Expected boolean, actual "yes please"'

const writeSkill = (root: string, directory: string, frontmatter: string) => {
  mkdirSync(join(root, directory), { recursive: true })
  writeFileSync(join(root, directory, "SKILL.md"), `---\n${frontmatter}\n---\n# ${directory}\n`)
}

const tempDir = () => mkdtempSync(join(tmpdir(), "armory-cli-skills-"))

describe("armory skills list", () => {
  it("lists the bundled examples and says why the malformed one was dropped", async () => {
    const run = await armory(["skills", "list", "--dir", examples])
    expect(run.code).toBe(0)
    expect(run.stdout).toContain("6 skills loaded")
    for (const name of exampleNames) expect(run.stdout).toMatch(new RegExp(`^${name}\\s`, "m"))
    expect(run.stdout).toContain(`broken-frontmatter/SKILL.md: ${brokenReason}`)
    expect(run.stdout).toMatch(/^google-docs .*url: docs\.google\.com\/document\/\*\*/m)
  })

  it("prints the load report as pure JSON on stdout with --json", async () => {
    const run = await armory(["skills", "list", "--dir", examples, "--json"])
    expect(run.code).toBe(0)
    const report = JSON.parse(run.stdout) as {
      skills: ReadonlyArray<{ name: string; location: string }>
      dropped: ReadonlyArray<{ file: string; reason: string }>
      warnings: ReadonlyArray<unknown>
    }
    expect(report.skills.map((skill) => skill.name)).toEqual(exampleNames)
    expect(report.dropped).toEqual([{ file: join(examples, "broken-frontmatter", "SKILL.md"), reason: brokenReason }])
    expect(report.warnings).toEqual([])
    expect(report.skills.every((skill) => !("body" in skill))).toBe(true)
    const withBodies = JSON.parse((await armory(["skills", "list", "--dir", examples, "--json", "--bodies"])).stdout) as {
      skills: ReadonlyArray<{ name: string; body: string }>
    }
    expect(withBodies.skills.map((skill) => typeof skill.body)).toEqual(exampleNames.map(() => "string"))
  })

  it("reads ./.armory/skills then ~/.armory/skills by default, the first winning a name clash", async () => {
    const project = tempDir()
    const home = tempDir()
    writeSkill(join(project, ".armory", "skills"), "shared", "name: shared\ndescription: the project's copy")
    writeSkill(join(home, ".armory", "skills"), "shared", "name: shared\ndescription: the home copy")
    writeSkill(join(home, ".armory", "skills"), "personal", "name: personal\ndescription: only at home")
    const run = await armory(["skills", "list", "--json"], { cwd: project, env: { HOME: home } })
    expect(run.code).toBe(0)
    const report = JSON.parse(run.stdout) as {
      skills: ReadonlyArray<{ name: string; description: string }>
      shadowed: ReadonlyArray<{ name: string; file: string }>
    }
    expect(report.skills.map(({ name, description }) => [name, description])).toEqual([
      ["shared", "the project's copy"],
      ["personal", "only at home"]
    ])
    expect(report.shadowed).toEqual([
      expect.objectContaining({ name: "shared", file: join(home, ".armory", "skills", "shared", "SKILL.md") })
    ])
  })

  it("reads the roots Claude Code, Codex and OpenCode use, and keeps a shadowed skill reachable by its address", async () => {
    const project = tempDir()
    const home = tempDir()
    const env = { HOME: home, CODEX_HOME: join(home, "codex"), XDG_CONFIG_HOME: join(home, "config") }
    writeSkill(join(project, ".claude", "skills"), "shared", "name: shared\ndescription: the project's Claude Code copy")
    writeSkill(join(home, ".agents", "skills"), "shared", "name: shared\ndescription: the user's Agent Skills copy")
    writeSkill(join(home, "config", "opencode", "skills"), "opencode-only", "name: opencode-only\ndescription: from OpenCode's folder")
    writeSkill(join(home, "codex", "skills"), "codex-only", "name: codex-only\ndescription: from Codex's folder")
    const listed = JSON.parse((await armory(["skills", "list", "--json"], { cwd: project, env })).stdout) as {
      skills: ReadonlyArray<{ address: string }>
      shadowed: ReadonlyArray<{ address: string; skill: Record<string, unknown> }>
    }
    expect(listed.skills.map(({ address }) => address)).toEqual(["project-claude:shared", "user-opencode:opencode-only", "user-codex:codex-only"])
    expect(listed.shadowed.map(({ address }) => address)).toEqual(["user-agents:shared"])
    expect(listed.shadowed[0]?.skill).not.toHaveProperty("body")

    const shown = await armory(["skills", "show", "user-agents:shared"], { cwd: project, env })
    expect(shown.code).toBe(0)
    expect(shown.stdout.split("\n").slice(0, 2)).toEqual(["shared (user-agents:shared)", "the user's Agent Skills copy"])
    const missing = await armory(["skills", "show", "nowhere:shared"], { cwd: project, env })
    expect(missing.code).toBe(1)

    const catalog = await armory(["skills", "catalog"], { cwd: project, env })
    expect([...catalog.stdout.matchAll(/<name>([^<]+)<\/name>/g)].map((match) => match[1])).toEqual(["shared", "opencode-only", "codex-only", "user-agents:shared"])
    const tooSmall = await armory(["skills", "catalog", "--max-chars", "40"], { cwd: project, env })
    expect({ code: tooSmall.code, stdout: tooSmall.stdout }).toEqual({ code: 2, stdout: "" })
    expect(tooSmall.stderr).toContain("--max-chars 40: maxChars 40 is below the catalog's minimum of")
    const negative = await armory(["skills", "catalog", "--max-chars", "-5"], { cwd: project, env })
    expect({ code: negative.code, stdout: negative.stdout }).toEqual({ code: 2, stdout: "" })
    expect(negative.stderr).toContain("--max-chars -5: maxChars must be a non-negative whole number of characters, got -5")

    const suggested = JSON.parse((await armory(["skills", "suggest", "use the codex folder skill", "--json"], { cwd: project, env })).stdout) as {
      suggestions: ReadonlyArray<{ name: string; terms: ReadonlyArray<string> }>
    }
    expect(suggested.suggestions[0]).toMatchObject({ name: "codex-only", terms: expect.arrayContaining(["codex", "folder"]) })
    const badLimit = await armory(["skills", "suggest", "pdf", "--limit", "0"], { cwd: project, env })
    expect(badLimit.code).toBe(2)
  })

  it("loads nothing, without failing, when no default root exists", async () => {
    const run = await armory(["skills", "list"], { cwd: tempDir(), env: { HOME: tempDir() } })
    expect(run.code).toBe(0)
    expect(run.stdout).toContain("0 skills loaded")
  })

  it("surfaces URL globs whose host ends in a wildcard", async () => {
    const root = tempDir()
    writeSkill(root, "risky", 'name: risky\ndescription: risky glob\nautoInject:\n  url: ["docs.google.com*/**"]')
    const run = await armory(["skills", "list", "--dir", root])
    expect(run.code).toBe(0)
    expect(run.stdout).toContain("warnings 1:")
    expect(run.stdout).toContain("docs.google.com.evil.example")
  })
})

describe("armory skills check", () => {
  it("exits 1 when a document was dropped", async () => {
    const run = await armory(["skills", "check", "--dir", examples])
    expect(run.code).toBe(1)
    expect(run.stdout).toContain(brokenReason)
    expect(run.stderr).toContain("1 dropped, 0 autoInject blocks ignored")
  })

  it("exits 1 when an autoInject block was ignored, and names it", async () => {
    const root = tempDir()
    writeSkill(root, "odd", "name: odd\ndescription: odd block\nautoInject:\n  keywords: browser")
    const run = await armory(["skills", "check", "--dir", root])
    expect(run.code).toBe(1)
    expect(run.stdout).toContain("autoInject ignored for 1:")
    expect(run.stdout).toContain(join(root, "odd", "SKILL.md"))
  })

  it("exits 1 when a skill's name does not match its directory, and loads it anyway", async () => {
    const root = tempDir()
    writeSkill(root, "pdf-tools", "name: pdf\ndescription: makes PDFs")
    const run = await armory(["skills", "check", "--dir", root])
    expect(run.code).toBe(1)
    expect(run.stdout).toContain("1 skill loaded")
    expect(run.stdout).toContain(`${join(root, "pdf-tools", "SKILL.md")}: name "pdf" does not match its directory "pdf-tools"`)
    expect(run.stderr).toContain("0 dropped, 0 autoInject blocks ignored, 1 warnings")
  })

  it("exits 0 when every document loaded with its autoInject", async () => {
    const run = await armory(["skills", "check", "--dir", join(examples, "pdf-tools"), "--dir", join(examples, "goal-runtime")])
    expect(run.code).toBe(0)
    expect(run.stdout).toContain("2 skills loaded")
  })
})

describe("armory arm", () => {
  it("says which skills arm for a prompt, URL, path and edited file, and which patterns armed each", async () => {
    const run = await armory([
      "arm",
      "Open the browser, click Export and 요약해줘 the PDF",
      "--url",
      "http://localhost:3000/reports",
      "--path",
      "src/report.ts",
      "--edited",
      "edits/report.ts",
      "--dir",
      examples,
      "--json"
    ], { cwd: join(examples, "..") })
    expect(run.code).toBe(0)
    const result = JSON.parse(run.stdout) as { armed: ReadonlyArray<unknown>; loaded: number; dropped: ReadonlyArray<unknown> }
    expect(result.loaded).toBe(6)
    expect(result.dropped).toHaveLength(1)
    expect(result.armed).toEqual([
      { name: "browser-drive", keywords: ["browser", "click"], urls: ["localhost:*/**"], paths: [], edits: [] },
      {
        name: "comment-checker",
        keywords: [],
        urls: [],
        paths: ["**/*.{ts,tsx,js,jsx,mjs,cjs}"],
        edits: [{ path: "edits/report.ts", lines: ["// Refunds arrive as negative amounts, so the sum is already net of them."] }]
      },
      { name: "korean-summary", keywords: ["요약"], urls: [], paths: [], edits: [] },
      { name: "pdf-tools", keywords: ["pdf"], urls: [], paths: [], edits: [] }
    ])
  })

  it("renders a table of armed skills by default", async () => {
    const run = await armory(["arm", "edit this", "--url", "https://docs.google.com/document/d/1/edit", "--dir", examples])
    expect(run.code).toBe(0)
    expect(run.stdout).toContain("armed 1 of 6 skills")
    expect(run.stdout).toMatch(/^google-docs\s+url: docs\.google\.com\/document\/\*\*$/m)
  })

  it("says in one line how many documents did not load as written, and not why, pointing to skills check", async () => {
    const run = await armory(["arm", "edit this", "--dir", examples])
    expect(run.code).toBe(0)
    expect(run.stdout.trimEnd().split("\n").at(-1)).toBe("skill documents not loaded as written: 1 dropped (`armory skills check` says why)")
    expect(run.stdout).not.toContain(brokenReason)
  })

  it("arms nothing for a prompt that matches nothing, and still exits 0", async () => {
    const run = await armory(["arm", "she said hello", "--dir", examples, "--json"])
    expect(run.code).toBe(0)
    expect((JSON.parse(run.stdout) as { armed: ReadonlyArray<unknown> }).armed).toEqual([])
  })

  it("names the skills a prompt is about when none arms, without arming them", async () => {
    const root = tempDir()
    writeSkill(root, "invoices", "name: invoices\ndescription: Reads invoices and totals them per month")
    const run = await armory(["arm", "total my invoices for march", "--dir", root])
    expect(run.code).toBe(0)
    expect(run.stdout.split("\n")).toEqual(["armed 0 of 1 skills", "not armed, but the prompt is about: invoices (`armory skills suggest` ranks them)", ""])
    const quiet = await armory(["arm", "she said hello", "--dir", root])
    expect(quiet.stdout).toBe("armed 0 of 1 skills\n")
  })

  it("exits 2 without a prompt", async () => {
    const run = await armory(["arm", "--dir", examples])
    expect(run.code).toBe(2)
  })
})
