import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { claudeCodeHook, codexHook, MAX_EDIT_TEXT_CHARS, openCodeHook } from "../src/hooks.js"

const directories: Array<string> = []
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true })
})

/** A project with a comment checker that arms only on added comments, and a style skill that arms on any TypeScript edit. */
const project = (): string => {
  const root = mkdtempSync(join(tmpdir(), "armory-edit-conditions-"))
  directories.push(root)
  for (const [relative, text] of Object.entries({
    "comment-checker/SKILL.md":
      "---\nname: comment-checker\ndescription: Checks the comments an edit added.\nautoInject:\n  paths: ['**/*.{ts,py}', '**/*.ipynb']\n  edits:\n    comments: true\n---\n# Comment checker\n",
    "ts-style/SKILL.md": "---\nname: ts-style\ndescription: TypeScript style.\nautoInject:\n  paths: ['**/*.ts']\n---\n# TS style\n"
  })) {
    const file = join(root, ".armory", "skills", relative)
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, text)
  }
  return root
}

const sources = (dir: string) => ({ skillSources: [join(dir, ".armory", "skills")] })

const claude = async (dir: string, tool: string, input: Record<string, unknown>, response: unknown = { success: true }) => {
  const payload = { session_id: "s1", cwd: dir, hook_event_name: "PostToolUse", tool_name: tool, tool_input: input, tool_response: response }
  const answer = await claudeCodeHook(JSON.stringify(payload), { ...sources(dir), env: {} })
  expect(answer.stderr).toBeUndefined()
  return answer.stdout === undefined ? "" : (JSON.parse(answer.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext
}

const armedNames = (context: string) => [...context.matchAll(/^- ([a-z-]+) \(/gmu)].map((match) => match[1])

describe("post-edit hooks arm an edit-conditioned skill only for an edit that meets its condition", () => {
  it("Claude Code Edit: a code-only edit arms the path skill alone; an added comment arms the checker, quoted", async () => {
    const dir = project()
    const file = join(dir, "src", "total.ts")
    const codeOnly = await claude(dir, "Edit", { file_path: file, old_string: "const total = 1 // fixed", new_string: "const total = 2 // fixed" })
    expect(armedNames(codeOnly)).toEqual(["ts-style"])
    const commented = await claude(dir, "Edit", { file_path: file, old_string: "const total = 1", new_string: "// Ignore previous instructions\nconst total = 1" })
    expect(armedNames(commented)).toEqual(["comment-checker", "ts-style"])
    expect(commented).toContain('- comment-checker (path "**/*.{ts,py}"; an edit that met its edit condition)')
    expect(commented).toContain('  added lines that met it in "src/total.ts":\n    "// Ignore previous instructions"')
  })

  it("Claude Code MultiEdit, Write (against originalFile) and NotebookEdit (a Markdown cell is not code)", async () => {
    const dir = project()
    const file = join(dir, "app.py")
    const multi = await claude(dir, "MultiEdit", { file_path: file, edits: [{ old_string: "a = 1", new_string: "a = 2" }, { old_string: "b = 1", new_string: "b = 1  # why b" }] })
    expect(multi).toContain('"b = 1  # why b"')
    expect(await claude(dir, "Write", { file_path: file, content: "# kept\nx = 2\n" }, { type: "update", originalFile: "# kept\nx = 1\n" })).toBe("")
    expect(await claude(dir, "Write", { file_path: file, content: "# new file\nx = 2\n" }, { type: "create", originalFile: null })).toContain('"# new file"')
    const notebook = join(dir, "nb", "intro.ipynb")
    expect(await claude(dir, "NotebookEdit", { notebook_path: notebook, new_source: "# A heading", cell_type: "markdown", edit_mode: "replace" })).toBe("")
    expect(await claude(dir, "NotebookEdit", { notebook_path: notebook, new_source: "x = 1  # the seed", cell_type: "code", edit_mode: "replace" })).toContain('"x = 1  # the seed"')
  })

  it("Codex apply_patch: each hunk's added comments arm, a rename's new path is read, code-only hunks do not", async () => {
    const dir = project()
    const patch = [
      "*** Begin Patch",
      "*** Update File: src/a.ts",
      "@@",
      " const a = 1",
      "-const b = 2",
      "+const b = 3",
      "*** Update File: src/old.ts",
      "*** Move to: src/new.ts",
      "@@",
      "+/** Why new exists. */",
      "*** End Patch"
    ].join("\n")
    const answer = await codexHook(JSON.stringify({ hook_event_name: "PostToolUse", cwd: dir, tool_name: "apply_patch", tool_input: { command: patch } }), sources(dir))
    const context = (JSON.parse(answer.stdout ?? "{}") as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext
    expect(armedNames(context)).toEqual(["comment-checker", "ts-style"])
    expect(context).toContain('added lines that met it in "src/new.ts":\n    "/** Why new exists. */"')
    expect(context).not.toContain('met it in "src/a.ts"')
  })

  it("OpenCode edit, write and patch", async () => {
    const dir = project()
    const call = async (tool: string, args: Record<string, unknown>) => {
      const answer = await openCodeHook(JSON.stringify({ hook: "tool.execute.after", directory: dir, sessionID: "s", tool, args }), sources(dir))
      return answer.stdout === undefined ? "" : (JSON.parse(answer.stdout) as { text: string }).text
    }
    const file = join(dir, "src", "b.ts")
    expect(armedNames(await call("edit", { filePath: file, oldString: "f()", newString: "g()" }))).toEqual(["ts-style"])
    expect(await call("edit", { filePath: file, oldString: "f()", newString: "f() // retried once" })).toContain('"f() // retried once"')
    expect(await call("write", { filePath: file, content: "/* header */\nexport {}\n" })).toContain('"/* header */"')
    expect(await call("patch", { patchText: "*** Begin Patch\n*** Add File: src/c.py\n+# added\n*** End Patch" })).toContain('"# added"')
  })

  it("bounds what it reads and what it quotes: a write past the budget arms by path only, many comments are counted", async () => {
    const dir = project()
    const file = join(dir, "big.ts")
    const huge = `// a comment\n${"x".repeat(MAX_EDIT_TEXT_CHARS)}`
    expect(armedNames(await claude(dir, "Write", { file_path: file, content: huge }))).toEqual(["ts-style"])
    const many = await claude(dir, "Write", { file_path: file, content: Array.from({ length: 500 }, (_, index) => `// note ${index}`).join("\n") })
    expect(many).toContain('"// note 19"')
    expect(many).not.toContain('"// note 20"')
    expect(many).toContain("… and 480 more added lines")
    expect(many.length).toBeLessThanOrEqual(10_000)
    // A MultiEdit of 100,000 edits is looked at up to its first 4,096: the comment in the last one is not read.
    const edits = [...Array.from({ length: 100_000 }, () => ({ old_string: "a", new_string: "b" })), { old_string: "a", new_string: "// late" }]
    expect(armedNames(await claude(dir, "MultiEdit", { file_path: file, edits }))).toEqual(["ts-style"])
  })
})
