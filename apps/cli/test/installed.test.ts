import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { installedPackages, installedSize, installPackedArmoryPackage } from "@armory/config/installed"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const workspaceRoot = join(import.meta.dirname, "..", "..", "..")
const INSTALL_TIMEOUT_MS = 240_000

let project: string

/** A project outside the monorepo with `@armory/cli` installed by npm from the packed tarballs, as a user installs it from the registry. */
beforeAll(async () => {
  project = mkdtempSync(join(tmpdir(), "armory-installed-cli-"))
  await installPackedArmoryPackage(workspaceRoot, "@armory/cli", project, { timeoutMs: INSTALL_TIMEOUT_MS })
  mkdirSync(join(project, ".armory", "skills", "pdf-tools"), { recursive: true })
  writeFileSync(join(project, ".armory", "skills", "pdf-tools", "SKILL.md"), "---\nname: pdf-tools\ndescription: PDFs.\nautoInject:\n  keywords: [pdf]\n---\n# PDF\n")
}, INSTALL_TIMEOUT_MS + 120_000)

afterAll(() => rmSync(project, { recursive: true, force: true }))

/** The test's environment without the module path the workspace's package manager adds, so nothing resolves from the monorepo. */
const { NODE_PATH: _monorepoModules, ...userEnv } = process.env

/** Runs a shell command line in the project, as a host runs the commands `armory init` writes. */
const shell = (command: string, input = "") =>
  execFileSync("sh", ["-c", command], { cwd: project, input, env: { ...userEnv, CLAUDE_PROJECT_DIR: project }, encoding: "utf8", timeout: 60_000 })

describe("@armory/cli installed from its packed tarball", () => {
  it("runs as `npx -y @armory/cli`, with nothing from the monorepo", () => {
    expect(shell("npx -y @armory/cli --version").trim()).toMatch(/^armory v\d+\.\d+\.\d+/)
    const installed = JSON.parse(readFileSync(join(project, "node_modules", "@armory", "cli", "package.json"), "utf8")) as { bin: Record<string, string> }
    expect(installed.bin).toEqual({ armory: "./dist/bin.js" })
    expect(dirname(execFileSync("node", ["-e", "console.log(require.resolve('playwright-core/package.json'))"], { cwd: project, env: userEnv, encoding: "utf8" }))).toContain(
      join(project, "node_modules")
    )
  })

  it("sets up Claude Code with `armory init`, and the commands it wrote answer as Claude Code runs them", () => {
    shell("npx -y @armory/cli init claude-code")
    const settings = JSON.parse(readFileSync(join(project, ".claude", "settings.json"), "utf8")) as {
      hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>>
    }
    const hook = settings.hooks["UserPromptSubmit"]?.[0]?.hooks[0]?.command ?? ""
    const answer = shell(hook, JSON.stringify({ session_id: "s", cwd: project, hook_event_name: "UserPromptSubmit", prompt: "merge the pdf files" }))
    expect(JSON.parse(answer).hookSpecificOutput.additionalContext).toContain("- pdf-tools")

    const mcp = JSON.parse(readFileSync(join(project, ".mcp.json"), "utf8")) as { mcpServers: { armory: { command: string; args: Array<string> } } }
    const messages = [
      { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "installed", version: "1" } } },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "skills_arm", arguments: { prompt: "a pdf" } } }
    ]
    const server = execFileSync(mcp.mcpServers.armory.command, mcp.mcpServers.armory.args, {
      cwd: project,
      env: userEnv,
      input: `${messages.map((message) => JSON.stringify(message)).join("\n")}\n`,
      encoding: "utf8",
      timeout: 60_000
    })
    const lines = server.split("\n").filter((line) => line !== "").map((line) => JSON.parse(line) as { id?: number; result?: { structuredContent?: unknown } })
    expect(lines.find((line) => line.id === 2)?.result?.structuredContent).toEqual({ result: [expect.objectContaining({ name: "pdf-tools" })] })
  })

  it("runs code mode from the installed CLI: the sandbox's worker bundled beside it, its WebAssembly from the installed binary", () => {
    writeFileSync(join(project, "sum.js"), "return [1, 2, 3].reduce((total, value) => total + value, 0)")
    expect(JSON.parse(shell("npx -y @armory/cli exec sum.js --json"))).toMatchObject({ status: "completed", result: 6 })
  })

  it("installs lean: what the bundle leaves out and nothing else, no Redis client and no Effect, and says how much", () => {
    const names = installedPackages(join(project, "node_modules")).map((entry) => entry.name)
    const size = installedSize(join(project, "node_modules"))
    const largest = size.largest.map((entry) => `${entry.name} ${(entry.bytes / 1024 / 1024).toFixed(1)} MiB`)
    console.info(`@armory/cli installed: ${size.packages} packages, ${(size.bytes / 1024 / 1024).toFixed(1)} MiB (largest: ${largest.join(", ")})`)
    // `@effect/platform-node` names a Redis client as a peer; bundled into the CLI, it installs nothing.
    expect(names.filter((name) => name === "redis" || name.startsWith("@redis/"))).toEqual([])
    // Only what the bundle loads from the installed packages at run time: QuickJS's WebAssembly and
    // Playwright. The Armory packages and Effect are inside the bundle, code mode's worker beside it.
    expect(names.filter((name) => name.startsWith("@armory/"))).toEqual(["@armory/cli"])
    expect(names).not.toContain("effect")
  })

  it("sets up OpenCode with `armory init`: the plugin file it wrote loads and answers chat.message", () => {
    shell("npx -y @armory/cli init opencode")
    const config = JSON.parse(readFileSync(join(project, "opencode.json"), "utf8")) as { mcp: { armory: { type: string; command: Array<string> } } }
    expect(config.mcp.armory).toEqual({ type: "local", command: ["npx", "-y", "@armory/cli", "mcp"], enabled: true })
    // OpenCode installs what a plugin imports; this one imports only Node's built-ins, so there is nothing to install.
    expect(existsSync(join(project, ".opencode", "package.json"))).toBe(false)
    // As OpenCode does: import the plugin file, call it with the project, then call its hook (which runs `npx -y @armory/cli hook opencode`).
    const script =
      `const { ArmoryPlugin } = await import(${JSON.stringify(join(project, ".opencode", "plugins", "armory.js"))});` +
      `const hooks = await ArmoryPlugin({ directory: process.cwd(), worktree: process.cwd() });` +
      `const output = { message: { id: "msg_1", sessionID: "ses_1" }, parts: [{ id: "prt_1", sessionID: "ses_1", messageID: "msg_1", type: "text", text: "a pdf please" }] };` +
      `await hooks["chat.message"]({ sessionID: "ses_1" }, output); console.log(output.parts[1].text)`
    expect(execFileSync("node", ["--input-type=module", "-e", script], { cwd: project, env: userEnv, encoding: "utf8" })).toContain("- pdf-tools")
  })
})
