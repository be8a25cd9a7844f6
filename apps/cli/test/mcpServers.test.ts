import { execFile } from "node:child_process"
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { describeRequiring } from "@armory/config/test-components"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { type LaunchedChromium, launchChromium, processAlive } from "../../../packages/browser-runtime/test/support/chromium.js"
import { type FixtureSite, startFixtureSite } from "../../../packages/browser-runtime/test/support/servers.js"

const bin = join(import.meta.dirname, "..", "dist", "bin.js")
const require = createRequire(import.meta.url)
const everythingServer = require.resolve("@modelcontextprotocol/server-everything/dist/index.js")
const filesystemServer = require.resolve("@modelcontextprotocol/server-filesystem/dist/index.js")
const playwrightMcp = join(dirname(require.resolve("@playwright/mcp/package.json")), "cli.js")
const plainServer = join(import.meta.dirname, "..", "..", "..", "packages", "host", "test", "fixtures", "hostile-mcp-server.mjs")

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).toReversed()) await cleanup()
})

const temporaryDirectory = (): string => {
  const directory = realpathSync(mkdtempSync(join(tmpdir(), "armory-cli-mcp-servers-")))
  cleanups.push(() => rmSync(directory, { recursive: true, force: true }))
  return directory
}

const armory = (args: ReadonlyArray<string>, cwd: string): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { cwd, env: { ...process.env, HOME: cwd }, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr })
    )
  })

/** A project with a `.mcp.json` naming the given servers, and `script.js` holding `code`. */
const project = (servers: Record<string, unknown>, code: string): string => {
  const cwd = temporaryDirectory()
  writeFileSync(join(cwd, ".mcp.json"), JSON.stringify({ mcpServers: servers }))
  writeFileSync(join(cwd, "script.js"), code)
  return cwd
}


describe("armory exec --mcp", () => {
  it("calls server-everything's tools from code mode and prints one result", async () => {
    const cwd = project(
      { everything: { command: process.execPath, args: [everythingServer, "stdio"] } },
      'const [echo] = await tools.everything.echo({ message: "hello" })\nconst sum = await tools.everything.get_sum({ a: 1, b: 2 })\nreturn [echo.text, sum[0].text]'
    )
    const run = await armory(["exec", "script.js", "--mcp", ".mcp.json", "--json"], cwd)
    expect(run.code).toBe(0)
    expect(JSON.parse(run.stdout)).toMatchObject({ status: "completed", result: ["Echo: hello", expect.stringContaining("is 3")] })
  })

  it("reads 50 files through server-filesystem and returns one summary", async () => {
    const files = temporaryDirectory()
    for (let index = 0; index < 50; index++) writeFileSync(join(files, `note-${String(index).padStart(2, "0")}.txt`), `note ${index}\n${"word ".repeat(index)}\n`)
    const cwd = project(
      { files: { command: process.execPath, args: [filesystemServer, files] } },
      `const listing = await tools.files.list_directory({ path: ${JSON.stringify(files)} })
       const names = listing.content.split("\\n").filter((line) => line.startsWith("[FILE]")).map((line) => line.slice(7))
       let words = 0
       for (const name of names) {
         const file = await tools.files.read_text_file({ path: ${JSON.stringify(files)} + "/" + name })
         words += file.content.split(/\\s+/).filter((word) => word === "word").length
       }
       return { files: names.length, words }`
    )
    const run = await armory(["exec", "script.js", "--mcp", ".mcp.json", "--json"], cwd)
    expect(run.code).toBe(0)
    const result = JSON.parse(run.stdout) as { result: unknown; calls: Array<{ path: string; status: string }> }
    expect(result.result).toEqual({ files: 50, words: (49 * 50) / 2 })
    expect(result.calls).toHaveLength(51)
    expect(result.calls.every(({ status }) => status === "ok")).toBe(true)
  })

  it("refuses a configuration it cannot use as a usage error, naming what is wrong", async () => {
    const cwd = project({ broken: { command: "x", env: { TOKEN: "${ARMORY_TEST_UNSET_VARIABLE}" } } }, "return 1")
    const run = await armory(["exec", "script.js", "--mcp", ".mcp.json"], cwd)
    expect(run.code).toBe(2)
    expect(run.stderr).toContain("--mcp .mcp.json: mcpServers.broken.env.TOKEN names ${ARMORY_TEST_UNSET_VARIABLE}, which is not set and has no default")
    const missing = await armory(["exec", "script.js", "--mcp", "nowhere.json"], cwd)
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain("--mcp nowhere.json: unreadable")
  })

  it("declares each server's tools in the instructions a model reads", async () => {
    const cwd = project({ everything: { command: process.execPath, args: [everythingServer, "stdio"] } }, "")
    const run = await armory(["instructions", "--mcp", ".mcp.json"], cwd)
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/ {2}everything: \{\n[^]*?\/\*\* Echoes back the input string \*\/\n\s+echo\(input: \{/)
  })
})

describe("armory mcp --mcp", () => {
  it("offers one execute tool over the servers it was handed, and stops them when the client leaves", async () => {
    const cwd = project(
      {
        everything: { command: process.execPath, args: [everythingServer, "stdio"] },
        plain: { command: process.execPath, args: [plainServer, "plain"] }
      },
      ""
    )
    mkdirSync(join(cwd, "skills"))
    const transport = new StdioClientTransport({ command: process.execPath, args: [bin, "mcp", "--dir", "skills", "--mcp", ".mcp.json"], cwd, stderr: "pipe" })
    const client = new Client({ name: "armory-cli-test", version: "1.0.0" })
    await client.connect(transport)
    const listed = await client.listTools()
    const execute = listed.tools.find(({ name }) => name === "execute")
    expect(execute?.description).toMatch(/- `tools\.everything`: [^\n]*\becho\b/)
    const declarations = await client.readResource({ uri: "armory://codemode/instructions" })
    expect(declarations.contents[0]).toEqual(expect.objectContaining({ text: expect.stringContaining("everything: {") }))
    const answer = await client.callTool({
      name: "execute",
      arguments: { code: 'const [echo] = await tools.everything.echo({ message: "over mcp" }); return [echo.text, Number((await tools.plain.pid())[0].text)]' }
    })
    const { result } = answer.structuredContent as { result: [string, number] }
    expect(result[0]).toBe("Echo: over mcp")
    const serverPid = result[1]
    expect(processAlive(serverPid)).toBe(true)
    await client.close()
    // The client closing stdin ends `armory mcp`, which stops the servers it started.
    const deadline = Date.now() + 10_000
    while (processAlive(serverPid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50))
    expect(processAlive(serverPid)).toBe(false)
  })
})

describeRequiring("browser", "armory exec --mcp over @playwright/mcp, on a real Chromium", () => {
  let chromium: LaunchedChromium
  let site: FixtureSite
  beforeAll(async () => {
    ;[chromium, site] = await Promise.all([launchChromium(), startFixtureSite()])
  })
  afterAll(async () => {
    await Promise.all([chromium?.kill(), site?.close()])
  })

  it("drives the page through Playwright MCP's tools and returns only what the code picked out", async () => {
    const output = temporaryDirectory()
    const cwd = project(
      { playwright: { command: process.execPath, args: [playwrightMcp, "--cdp-endpoint", chromium.cdpUrl, "--output-dir", output] } },
      `await tools.playwright.browser_navigate({ url: ${JSON.stringify(`${site.url}/plain`)} })
       const [snapshot] = await tools.playwright.browser_snapshot()
       const go = /button "Go" \\[ref=(\\w+)\\]/.exec(snapshot.text)[1]
       await tools.playwright.browser_click({ element: "Go button", target: go })
       await tools.playwright.browser_wait_for({ text: "clicked" })
       const [after] = await tools.playwright.browser_snapshot()
       return { heading: /heading "([^"]+)"/.exec(snapshot.text)[1], clicked: after.text.includes("clicked") }`
    )
    const run = await armory(["exec", "script.js", "--mcp", ".mcp.json", "--json", "--timeout", "60000"], cwd)
    expect(JSON.parse(run.stdout)).toMatchObject({ status: "completed", result: { heading: "Fixture page", clicked: true } })
    expect(run.code).toBe(0)
  })
})
