import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { claudeCodeHook, codexHook } from "../src/hooks.js"

const directories: Array<string> = []
const savedHome = process.env["HOME"]
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true })
  if (savedHome === undefined) delete process.env["HOME"]
  else process.env["HOME"] = savedHome
})

const temporary = (prefix: string): string => {
  const directory = mkdtempSync(join(tmpdir(), prefix))
  directories.push(directory)
  return directory
}

const review = (whose: string) => `---\nname: review\ndescription: Reviews.\nautoInject:\n  keywords: [review]\n---\n${whose} review steps.\n`

describe("a skill name the project and the user both hold", () => {
  it("goes to the personal skill under Claude Code, as it documents, and to the project's under Codex", async () => {
    const project = temporary("armory-precedence-project-")
    const home = temporary("armory-precedence-home-")
    for (const [root, whose] of [[join(project, ".claude", "skills"), "Project"], [join(home, ".claude", "skills"), "Personal"]] as const) {
      mkdirSync(join(root, "review"), { recursive: true })
      writeFileSync(join(root, "review", "SKILL.md"), review(whose))
    }
    const prompt = JSON.stringify({ session_id: "s", cwd: project, hook_event_name: "UserPromptSubmit", prompt: "please review this" })
    process.env["HOME"] = home
    expect((await claudeCodeHook(prompt, { env: {} })).stdout).toContain("Personal review steps.")
    expect((await codexHook(prompt)).stdout).toContain("Project review steps.")
  })
})
