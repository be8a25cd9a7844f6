import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { openGoalStore } from "@armory/goal-store"
import type { Hooks, Plugin, PluginInput } from "@opencode-ai/plugin"
import type { Part, TextPart, UserMessage } from "@opencode-ai/sdk"
import { afterEach, describe, expect, it } from "vitest"
import { makeOpenCodePlugin } from "../src/hooks.js"
import * as opencodeEntry from "../src/opencode.js"

// The plugin is what OpenCode's own types say a plugin is (it takes OpenCode's input and answers
// hooks OpenCode can call): a change that breaks that fails to compile.
const asOpenCodePlugin: (input: PluginInput) => Promise<Pick<Hooks, "chat.message" | "tool.execute.after">> = opencodeEntry.ArmoryPlugin
const pluginType: Plugin = asOpenCodePlugin
void pluginType

const directories: Array<string> = []
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true })
})

const project = (): string => {
  const root = mkdtempSync(join(tmpdir(), "armory-opencode-"))
  directories.push(root)
  const write = (relative: string, content: string) => {
    mkdirSync(dirname(join(root, relative)), { recursive: true })
    writeFileSync(join(root, relative), content)
  }
  write(".armory/skills/pdf-tools/SKILL.md", "---\nname: pdf-tools\ndescription: PDFs.\nautoInject:\n  keywords: [pdf]\n---\n# PDF\n")
  write(".armory/skills/comment-checker/SKILL.md", "---\nname: comment-checker\ndescription: Comments.\nautoInject:\n  paths: ['**/*.ts']\n---\n# C\n")
  return root
}

/** What OpenCode passes a plugin when it loads it (the fields Armory reads, typed as OpenCode declares them). */
const pluginInput = (directory: string) => ({ directory, worktree: directory }) as unknown as PluginInput

/** `chat.message`'s arguments as OpenCode builds them for a user's message with one typed text part. */
const chatMessage = (text: string) => {
  const message: UserMessage = { id: "msg_01", sessionID: "ses_01", role: "user", time: { created: 1 }, agent: "build", model: { providerID: "p", modelID: "m" } }
  const typed: TextPart = { id: "prt_01", sessionID: "ses_01", messageID: "msg_01", type: "text", text }
  const output: { message: UserMessage; parts: Array<Part> } = { message, parts: [typed] }
  return { input: { sessionID: "ses_01", agent: "build", messageID: "msg_01" }, output }
}

const plugin = (dir: string) => makeOpenCodePlugin({ skillSources: [join(dir, ".armory", "skills")] })(pluginInput(dir))

describe("the OpenCode plugin, called with the payloads OpenCode's plugin types declare", () => {
  it("exports nothing but the plugin from @armory/host/opencode (OpenCode calls every export)", () => {
    expect(Object.keys(opencodeEntry)).toEqual(["ArmoryPlugin"])
  })

  it("chat.message: adds a synthetic text part with the armed skills and the goal snapshot", async () => {
    const dir = project()
    const store = await openGoalStore({ root: join(dir, ".armory", "goals") })
    await store.set({ objective: "Merge the reports" })
    const hooks = await plugin(dir)
    const { input, output } = chatMessage("please merge these PDF files")
    await hooks["chat.message"](input, output)
    expect(output.parts).toHaveLength(2)
    const added = output.parts[1] as TextPart
    expect(added).toEqual({ id: expect.stringMatching(/^prt_armory_/), sessionID: "ses_01", messageID: "msg_01", type: "text", synthetic: true, text: expect.any(String) })
    expect(added.text).toContain(`- pdf-tools (keyword "pdf"): its SKILL.md (${join(dir, ".armory", "skills", "pdf-tools", "SKILL.md")}) follows in full`)
    expect(added.text).toContain("Goal g1 [active]: Merge the reports")
    // Its own synthetic part is not read back as something the user typed; the session has the snapshot already.
    await hooks["chat.message"](input, output)
    expect((output.parts[2] as TextPart).text).toContain("pdf-tools")
    expect((output.parts[2] as TextPart).text).not.toContain("Goal g1")
  })

  it("takes the project from the directory the session runs in, never the worktree (which is / outside a git repository)", async () => {
    const dir = project()
    const outsideGit = await makeOpenCodePlugin()({ directory: dir, worktree: "/" } as unknown as PluginInput)
    const { input, output } = chatMessage("please merge these PDF files")
    await outsideGit["chat.message"](input, output)
    expect((output.parts[1] as TextPart | undefined)?.text).toContain(join(dir, ".armory", "skills", "pdf-tools", "SKILL.md"))
    expect(existsSync(join(dir, ".armory", "cache", "hook-catalog.json"))).toBe(true)
    const subfolder = join(dir, "packages", "app")
    mkdirSync(subfolder, { recursive: true })
    const store = await openGoalStore({ root: join(subfolder, ".armory", "goals") })
    await store.set({ objective: "The subfolder's goal" })
    const inSubfolder = await makeOpenCodePlugin()({ directory: subfolder, worktree: dir } as unknown as PluginInput)
    const asked = chatMessage("what next?")
    await inSubfolder["chat.message"](asked.input, asked.output)
    expect((asked.output.parts[1] as TextPart | undefined)?.text).toContain("The subfolder's goal")
  })

  it("chat.message: adds nothing when nothing arms and no goal is open", async () => {
    const dir = project()
    const hooks = await plugin(dir)
    const { input, output } = chatMessage("hello there")
    await hooks["chat.message"](input, output)
    expect(output.parts).toHaveLength(1)
  })

  it("tool.execute.after: adds the skills an edited or written file arms to the tool's output", async () => {
    const dir = project()
    const hooks = await plugin(dir)
    const edited = { title: "src/a.ts", output: "Edit applied successfully.", metadata: {} }
    await hooks["tool.execute.after"]({ tool: "edit", sessionID: "ses_01", callID: "call_1", args: { filePath: join(dir, "src", "a.ts"), oldString: "a", newString: "b" } }, edited)
    expect(edited.output).toMatch(/^Edit applied successfully\.\n\nArmory skills armed by the edit of "src\/a\.ts"/)
    expect(edited.output).toContain("- comment-checker (path")
    const written = { title: "", output: "", metadata: {} }
    await hooks["tool.execute.after"]({ tool: "write", sessionID: "ses_01", callID: "call_2", args: { filePath: "src/b.ts", content: "x" } }, written)
    expect(written.output).toContain('the edit of "src/b.ts"')
    const patched = { title: "", output: "Success.", metadata: {} }
    const patchText = `*** Begin Patch\n*** Update File: src/c.ts\n@@\n-a\n+b\n*** Add File: docs/d.md\n+hi\n*** Update File: src/e.md\n*** Move to: src/e.ts\n*** End Patch`
    await hooks["tool.execute.after"]({ tool: "apply_patch", sessionID: "ses_01", callID: "call_3", args: { patchText } }, patched)
    expect(patched.output).toContain('Armory skills armed by the edits of "src/c.ts", "docs/d.md", "src/e.md" and 1 more files')
    for (const [tool, args] of [
      ["bash", { command: "touch src/c.ts" }],
      ["edit", { filePath: "/etc/hosts.ts" }],
      ["edit", { filePath: join(dir, "README.md") }],
      ["edit", "not an object"],
      ["write", { filePath: 42 }]
    ] as const) {
      const output = { title: "", output: "unchanged", metadata: {} }
      await hooks["tool.execute.after"]({ tool, sessionID: "ses_01", callID: "call", args }, output)
      expect({ tool, args, output: output.output }).toEqual({ tool, args, output: "unchanged" })
    }
  })

  it("never throws into OpenCode: a broken catalog cache or skill root adds nothing", async () => {
    const dir = project()
    mkdirSync(join(dir, ".armory", "cache"), { recursive: true })
    writeFileSync(join(dir, ".armory", "cache", "hook-catalog.json"), JSON.stringify({ version: 1, sources: JSON.stringify([join(dir, ".armory", "skills")]), stamps: [], skills: [{ name: 1, autoInject: "x" }] }))
    const hooks = await plugin(dir)
    const { input, output } = chatMessage("a pdf")
    await expect(hooks["chat.message"](input, output)).resolves.toBeUndefined()
  })
})
