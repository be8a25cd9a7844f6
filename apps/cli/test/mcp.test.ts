import { execFile, spawn } from "node:child_process"
import { once } from "node:events"
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { describeRequiring } from "@armory/config/test-components"
import { MCP_TOOL_NAMES, PAGE_TOOL_NAMES } from "@armory/mcp"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { type LaunchedChromium, launchChromium } from "../../../packages/browser-runtime/test/support/chromium.js"
import { type FixtureSite, startFixtureSite } from "../../../packages/browser-runtime/test/support/servers.js"
import { closeAdmin, dropSchema, TEST_DATABASE_URL, uniqueSchema } from "../../../packages/goal-store-pg/test/support/database.js"

const bin = join(import.meta.dirname, "..", "dist", "bin.js")
const inspectorPackage = createRequire(import.meta.url).resolve("@modelcontextprotocol/inspector/package.json")
const inspector = join(dirname(inspectorPackage), (JSON.parse(readFileSync(inspectorPackage, "utf8")) as { bin: Record<string, string> }).bin["mcp-inspector"] ?? "")

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).toReversed()) await cleanup()
})

const temporaryDirectory = (): string => {
  const directory = mkdtempSync(join(tmpdir(), "armory-mcp-cli-"))
  cleanups.push(() => rmSync(directory, { recursive: true, force: true }))
  return directory
}

const writeTree = (root: string, files: Readonly<Record<string, string>>): void => {
  for (const [relative, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, relative)), { recursive: true })
    writeFileSync(join(root, relative), content)
  }
}

/** A skill root with two good skills and documents the loader drops (it warns about them). */
const skillRoot = (): string => {
  const root = temporaryDirectory()
  writeTree(root, {
    "pdf-tools/SKILL.md": "---\nname: pdf-tools\ndescription: Work with PDF files.\nautoInject:\n  keywords: [pdf]\n---\n# PDF\n",
    "notes/SKILL.md": "---\nname: notes\ndescription: Keep notes.\n---\n# Notes\n",
    "broken/SKILL.md": "---\nname: broken\ndescription: x\nslash: yes please\n---\n",
    "no-frontmatter/SKILL.md": "# just markdown, printing nothing to stdout\n",
    "bad-name/SKILL.md": "---\nname: Bad Name\ndescription: x\n---\n"
  })
  return root
}

const connect = async (args: ReadonlyArray<string>, cwd: string, env: Record<string, string> = {}) => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, "mcp", ...args],
    cwd,
    stderr: "pipe",
    env: { ...(process.env as Record<string, string>), ...env }
  })
  const client = new Client({ name: "armory-cli-test", version: "1.0.0" })
  await client.connect(transport)
  cleanups.push(() => client.close())
  return { client, pid: transport.pid ?? 0 }
}

describe("armory mcp", () => {
  it("writes nothing but JSON-RPC messages to stdout, with malformed skills on its root, and exits 0 when stdin ends", async () => {
    const cwd = temporaryDirectory()
    // With warnings shown, so that the loader's report about the bad documents is written somewhere.
    const server = spawn(process.execPath, [bin, "mcp", "--dir", skillRoot(), "--log-level", "warn"], { cwd, stdio: ["pipe", "pipe", "pipe"] })
    const exited = once(server, "exit")
    let stdout = ""
    let stderr = ""
    server.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
    server.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
    const messages = [
      { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } } },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
      { jsonrpc: "2.0", id: 3, method: "resources/list" },
      { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "goal_set", arguments: { objective: "stay quiet" } } },
      { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "skills_arm", arguments: { prompt: "a pdf please" } } }
    ]
    for (const message of messages) server.stdin.write(`${JSON.stringify(message)}\n`)
    const deadline = Date.now() + 20_000
    while (!stdout.includes('"id":5') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50))
    server.stdin.end()
    const [code] = await exited
    const lines = stdout.split("\n").filter((line) => line !== "")
    expect(lines.length).toBeGreaterThanOrEqual(5)
    for (const line of lines) expect(JSON.parse(line)).toEqual(expect.objectContaining({ jsonrpc: "2.0" }))
    const answers = new Map(lines.map((line) => JSON.parse(line) as { id?: number; result?: Record<string, unknown> }).map((message) => [message.id, message.result]))
    const tools = (answers.get(2)?.["tools"] ?? []) as Array<{ name: string }>
    expect(tools.map((tool) => tool.name)).toEqual([...MCP_TOOL_NAMES])
    expect(answers.get(5)?.["structuredContent"]).toEqual({ result: [expect.objectContaining({ name: "pdf-tools", keywords: ["pdf"] })] })
    // The loader's warning about the dropped documents, and the name it loaded under another, went to stderr.
    expect(stderr).toMatch(/dropped 1 of 5 skill documents/)
    expect(stderr).toContain('name "Bad Name" is not an Agent Skills name')
    expect(stderr).toContain("no frontmatter: ")
    expect(code).toBe(0)
  })

  it("started in a subfolder, works on the project's goals and skills, as the hook does", async () => {
    const root = temporaryDirectory()
    writeTree(root, { ".armory/skills/pdf-tools/SKILL.md": "---\nname: pdf-tools\ndescription: PDFs.\nautoInject:\n  keywords: [pdf]\n---\n# PDF\n" })
    mkdirSync(join(root, "packages", "app"), { recursive: true })
    const { client } = await connect([], join(root, "packages", "app"))
    await client.callTool({ name: "goal_set", arguments: { objective: "one goal for the project" } })
    expect(readdirSync(join(root, ".armory", "goals"))).toContain("ledger.jsonl")
    const armed = await client.callTool({ name: "skills_arm", arguments: { prompt: "a pdf" } })
    expect(armed.structuredContent).toEqual({ result: [expect.objectContaining({ name: "pdf-tools" })] })
    const hook = await new Promise<string>((resolve) => {
      const child = execFile(process.execPath, [bin, "hook", "claude-code"], { env: { ...process.env, CLAUDE_PROJECT_DIR: join(root, "packages", "app") } }, (_error, stdout) => resolve(stdout))
      child.stdin?.end(JSON.stringify({ session_id: "s", cwd: join(root, "packages", "app"), hook_event_name: "UserPromptSubmit", prompt: "a pdf" }))
    })
    const context = (JSON.parse(hook) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext
    expect(context).toContain("- pdf-tools")
    expect(context).toContain("one goal for the project")
  })

  it("leaves no goal lock behind when it is killed in the middle of a call", async () => {
    const cwd = temporaryDirectory()
    const goals = join(cwd, "goals")
    const first = await connect(["--dir", skillRoot(), "--goals-root", goals], cwd)
    await first.client.callTool({ name: "goal_set", arguments: { objective: "survive a kill" } })
    // The code writes checkpoints until it is stopped; the server is killed while it writes.
    const running = first.client
      .callTool({ name: "execute", arguments: { code: "for (let i = 0; ; i++) await goals.checkpoint({ summary: `step ${i}` })", timeoutMs: 60_000 } })
      .catch(() => undefined)
    // The default session keeps its files at the goals root.
    const session = goals
    const deadline = Date.now() + 20_000
    const locked = () => readdirSync(session).some((name) => name.endsWith(".lock"))
    while (Date.now() < deadline && !locked()) await new Promise((resolve) => setTimeout(resolve, 5))
    expect(locked()).toBe(true)
    process.kill(first.pid, "SIGKILL")
    await running

    const second = await connect(["--dir", skillRoot(), "--goals-root", goals], cwd)
    const checkpoint = (await second.client.callTool({ name: "goal_checkpoint", arguments: { summary: "after the kill" } })) as { isError?: boolean }
    expect(checkpoint.isError).toBe(false)
    const status = await second.client.callTool({ name: "goal_status", arguments: {} })
    expect(status.structuredContent).toEqual(expect.objectContaining({ goal: expect.objectContaining({ objective: "survive a kill" }) }))
    await second.client.close()
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(readdirSync(session).filter((name) => name.includes(".lock"))).toEqual([])
  })

  it("refuses bad --http flags as invalid usage (exit 2) before it starts anything", async () => {
    const cwd = temporaryDirectory()
    const run = (args: ReadonlyArray<string>) =>
      new Promise<{ code: number | null; stderr: string }>((resolve) =>
        execFile(process.execPath, [bin, "mcp", ...args], { cwd }, (error, _stdout, stderr) => resolve({ code: error === null ? 0 : (error.code as number), stderr }))
      )
    const port = await run(["--http", "--port", "70000"])
    expect(port.code).toBe(2)
    expect(port.stderr).toContain("--port must be 0..65535, got 70000")
    const remote = await run(["--http", "--host", "0.0.0.0"])
    expect(remote.code).toBe(2)
    expect(remote.stderr).toContain("refusing to bind 0.0.0.0: not a loopback address")
  })

  it("lists its tools to the MCP Inspector CLI, a second client", async () => {
    const cwd = temporaryDirectory()
    const listed = await new Promise<string>((resolve, reject) => {
      execFile(
        process.execPath,
        [inspector, "--cli", process.execPath, bin, "mcp", "--dir", skillRoot(), "--method", "tools/list"],
        { cwd, timeout: 60_000 },
        (error, stdout, stderr) => (error === null ? resolve(stdout) : reject(new Error(`${error.message}\n${stderr}`)))
      )
    })
    const { tools } = JSON.parse(listed) as { tools: Array<{ name: string; inputSchema: { type: string } }> }
    expect(tools.map((tool) => tool.name)).toEqual([...MCP_TOOL_NAMES])
    expect(tools.every((tool) => tool.inputSchema.type === "object")).toBe(true)
  })
})

describeRequiring("browser", "armory mcp --provider, on a real Chromium", () => {
  let chromium: LaunchedChromium
  let site: FixtureSite
  beforeAll(async () => {
    ;[chromium, site] = await Promise.all([launchChromium(), startFixtureSite()])
  })
  afterAll(async () => {
    await Promise.all([chromium?.kill(), site?.close()])
  })

  it("offers the page tools only with a browser, and they drive a page of its own", async () => {
    const cwd = temporaryDirectory()
    const { client } = await connect(["--dir", skillRoot(), "--provider", "chrome-cdp"], cwd, { ARMORY_CHROME_CDP_URL: chromium.cdpUrl })
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name)).toEqual([...MCP_TOOL_NAMES, ...Object.values(PAGE_TOOL_NAMES)])
    expect(Object.keys(tools.find((tool) => tool.name === "page_text")?.inputSchema.properties ?? {})).toEqual(["selector", "maxBytes", "timeoutMs"])
    // Reading the page changes nothing; a click may change what cannot be undone.
    const hints = (name: string) => tools.find((tool) => tool.name === name)?.annotations
    for (const name of ["page_snapshot", "page_text", "page_url", "page_dialogs"]) expect({ name, hints: hints(name) }).toMatchObject({ name, hints: { readOnlyHint: true, openWorldHint: true } })
    for (const name of ["page_click", "page_type", "page_press", "page_select"]) {
      expect({ name, hints: hints(name) }).toMatchObject({ name, hints: { readOnlyHint: false, destructiveHint: true, openWorldHint: true } })
    }
    expect(hints("page_navigate")).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: true })
    const navigated = await client.callTool({ name: "page_navigate", arguments: { url: `${site.url}/plain` } })
    expect(navigated.isError).toBe(false)
    const heading = await client.callTool({ name: "page_text", arguments: { selector: "h1" } })
    expect(heading.structuredContent).toEqual({ result: "Fixture page" })
    const snapshot = (await client.callTool({ name: "page_snapshot", arguments: {} })).structuredContent as { id: string; tree: string }
    const go = /- button "Go" \[ref=(\w+)\]/.exec(snapshot.tree)?.[1]
    expect(go).toBeDefined()
    await client.callTool({ name: "page_click", arguments: { ref: go, snapshot: snapshot.id } })
    const out = await client.callTool({ name: "page_text", arguments: { selector: "#out" } })
    expect(out.structuredContent).toEqual({ result: "clicked" })
    const stale = await client.callTool({ name: "page_click", arguments: { ref: go, snapshot: "s0" } })
    expect(stale.isError).toBe(true)
    expect(stale.structuredContent).toEqual(expect.objectContaining({ _tag: "StaleHandleError", ref: go, snapshot: snapshot.id }))
    const refused = await client.callTool({ name: "page_navigate", arguments: { url: "file:///etc/passwd" } })
    expect(refused.isError).toBe(true)
    const executed = await client.callTool({ name: "execute", arguments: { code: "return await page.url()" } })
    expect(executed.structuredContent).toEqual(expect.objectContaining({ status: "completed", result: `${site.url}/plain` }))
  })
})

describeRequiring("pg", "armory mcp --store pg", () => {
  afterAll(() => closeAdmin())

  it("keeps the goals in PostgreSQL, one session per --session-id, seen by the next server", async () => {
    const schema = uniqueSchema("mcp")
    cleanups.push(() => dropSchema(schema))
    const cwd = temporaryDirectory()
    const env = { ARMORY_GOALS_DATABASE_URL: TEST_DATABASE_URL }
    const first = await connect(["--dir", skillRoot(), "--store", "pg", "--database-schema", schema, "--session-id", "billing"], cwd, env)
    await first.client.callTool({ name: "goal_set", arguments: { objective: "Rewrite billing", criteria: [{ scenario: "an invoice", qaChannel: "cli", testRef: "t" }] } })
    const refused = await first.client.callTool({ name: "goal_complete", arguments: {} })
    expect(refused.structuredContent).toEqual(expect.objectContaining({ _tag: "GateRefused", unmet: [expect.objectContaining({ criterionId: "c1" })] }))
    await first.client.close()
    // Another server on the same database and session sees the goal; the default session does not have it.
    const again = await connect(["--dir", skillRoot(), "--store", "pg", "--database-schema", schema, "--session-id", "billing"], cwd, env)
    expect((await again.client.callTool({ name: "goal_status", arguments: {} })).structuredContent).toEqual(
      expect.objectContaining({ goal: expect.objectContaining({ objective: "Rewrite billing" }) })
    )
    const other = await connect(["--dir", skillRoot(), "--store", "pg", "--database-schema", schema], cwd, env)
    expect((await other.client.callTool({ name: "goal_status", arguments: {} })).structuredContent).toEqual(expect.objectContaining({ goal: null }))
    const snapshot = await again.client.readResource({ uri: "armory://goals/snapshot" })
    expect(snapshot.contents[0]).toEqual(expect.objectContaining({ text: expect.stringContaining("Rewrite billing") }))
  })
})
