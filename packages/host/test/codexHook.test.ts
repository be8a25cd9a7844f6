import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { openGoalStore } from "@armory/goal-store"
import { afterEach, describe, expect, it } from "vitest"
import { codexHook } from "../src/hooks.js"

const FIXTURES = join(import.meta.dirname, "fixtures", "codex")

const directories: Array<string> = []
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true })
})

const skill = (name: string, autoInject: string) => `---\nname: ${name}\ndescription: The ${name} skill.\nautoInject:\n${autoInject}---\n# ${name}\n`

/** A project whose `.armory/skills` holds a keyword skill, a path skill for TypeScript and one for notebooks. */
const project = (): string => {
  const root = mkdtempSync(join(tmpdir(), "armory-codex-hook-"))
  directories.push(root)
  for (const [relative, text] of Object.entries({
    "pdf-tools/SKILL.md": skill("pdf-tools", "  keywords: [pdf]\n"),
    "comment-checker/SKILL.md": skill("comment-checker", "  paths: ['**/*.ts']\n"),
    "notebook-style/SKILL.md": skill("notebook-style", "  paths: ['notebooks/**']\n")
  })) {
    const file = join(root, ".armory", "skills", relative)
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, text)
  }
  return root
}

/** A payload as Codex 0.171 writes it to a hook's stdin, with the project put in as its `cwd`. */
const fixture = (name: string, projectDir: string): string => readFileSync(join(FIXTURES, name), "utf8").replaceAll("__PROJECT__", projectDir)

const hook = (input: string, projectDir: string) => codexHook(input, { skillSources: [join(projectDir, ".armory", "skills")] })

const contextOf = (stdout: string | undefined) => {
  if (stdout === undefined) throw new Error("the hook printed nothing")
  return (JSON.parse(stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } }).hookSpecificOutput
}

describe("codexHook, on payloads as Codex writes them", () => {
  it("UserPromptSubmit: the skills the prompt arms, in Codex's hook output format, the project taken from cwd", async () => {
    const dir = project()
    const answer = await hook(fixture("user-prompt-submit.json", dir), dir)
    expect(answer.stderr).toBeUndefined()
    expect(contextOf(answer.stdout)).toEqual({
      hookEventName: "UserPromptSubmit",
      additionalContext: `Armory skills armed by this prompt:\n- pdf-tools (keyword "pdf"): its SKILL.md (${join(dir, ".armory", "skills", "pdf-tools", "SKILL.md")}) follows in full\n\n<skill name="pdf-tools" location="${join(dir, ".armory", "skills", "pdf-tools", "SKILL.md")}">\n# pdf-tools\n</skill>`
    })
  })

  it("PostToolUse of apply_patch: the skills every file the patch names arms, added, updated or deleted", async () => {
    const dir = project()
    const { additionalContext } = contextOf((await hook(fixture("post-tool-use-apply-patch.json", dir), dir)).stdout)
    expect(additionalContext).toContain('Armory skills armed by the edits of "src/a.ts", "notebooks/intro.ipynb", "README.md"')
    expect(additionalContext).toContain("- comment-checker (path")
    expect(additionalContext).toContain("- notebook-style (path")
    expect(additionalContext).not.toContain("pdf-tools")
  })

  it("PostToolUse of any other tool adds nothing, even when its input looks like a patch", async () => {
    const dir = project()
    expect(await hook(fixture("post-tool-use-exec-command.json", dir), dir)).toEqual({})
  })

  it("SessionStart: the goal snapshot, once for the session; the next prompt of that session does not repeat it", async () => {
    const dir = project()
    const store = await openGoalStore({ root: join(dir, ".armory", "goals") })
    await store.set({ objective: "Ship the export" })
    const start = contextOf((await hook(fixture("session-start.json", dir), dir)).stdout)
    expect(start.hookEventName).toBe("SessionStart")
    expect(start.additionalContext).toContain("Ship the export")
    const prompt = contextOf((await hook(fixture("user-prompt-submit.json", dir), dir)).stdout)
    expect(prompt.additionalContext).not.toContain("Ship the export")
  })

  it("hostile or partial input is a reason on stderr, never a throw, never output", async () => {
    const dir = project()
    expect((await hook("{", dir)).stderr).toMatch(/^armory hook codex: the hook input is not JSON/)
    expect((await hook("[1]", dir)).stderr).toBe("armory hook codex: the hook input is not a JSON object")
    expect((await hook(JSON.stringify({ hook_event_name: "UserPromptSubmit", prompt: "pdf", cwd: "relative/dir" }), dir)).stderr).toBe(
      "armory hook codex: no project directory (an absolute cwd in the input)"
    )
    expect((await hook(JSON.stringify({ hook_event_name: "UserPromptSubmit", cwd: dir }), dir)).stderr).toBe("armory hook codex: UserPromptSubmit input without a prompt string")
    const hugePatch = `*** Begin Patch\n${Array.from({ length: 5_000 }, (_, index) => `*** Add File: src/f${index}.ts\n`).join("")}*** End Patch\n`
    const many = await hook(JSON.stringify({ hook_event_name: "PostToolUse", cwd: dir, tool_name: "apply_patch", tool_input: { command: hugePatch } }), dir)
    expect(contextOf(many.stdout).additionalContext).toContain("and 253 more files")
  })
})
