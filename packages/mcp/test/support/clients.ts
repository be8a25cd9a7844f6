import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import type { McpServers } from "@armory/host"
import { listenMcpHttp } from "../../src/index.js"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { afterEach } from "vitest"

/** The script that serves Armory's MCP server on stdio with the options given as JSON. */
export const STDIO_SERVER = fileURLToPath(new URL("./stdio-server.mjs", import.meta.url))

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).toReversed()) await cleanup()
})

/** Runs `cleanup` after the current test. */
export const afterTest = (cleanup: () => Promise<void> | void): void => {
  cleanups.push(cleanup)
}

/** A fresh directory removed after the test. */
export const temporaryDirectory = (prefix = "armory-mcp-"): string => {
  const directory = mkdtempSync(join(tmpdir(), prefix))
  afterTest(() => rmSync(directory, { recursive: true, force: true }))
  return directory
}

/** Writes each `relative path → content` under `root`. */
export const writeTree = (root: string, files: Readonly<Record<string, string>>): void => {
  for (const [relative, content] of Object.entries(files)) {
    const file = join(root, relative)
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, content)
  }
}

export const skillDocument = (name: string, description: string, extra = "", body = `# ${name}\n`): string =>
  `---\nname: ${name}\ndescription: ${description}\n${extra}---\n${body}`

/** A project with a skill root (two skills, one with keywords) and a goals root. */
export const project = () => {
  const root = temporaryDirectory()
  const skills = join(root, "skills")
  writeTree(skills, {
    "pdf-tools/SKILL.md": skillDocument("pdf-tools", "Work with PDF files.", "autoInject:\n  keywords: [pdf]\n", "# PDF\nUse scripts/merge.py.\n"),
    "pdf-tools/scripts/merge.py": "print('merge')\n",
    "comment-checker/SKILL.md": skillDocument("comment-checker", "Checks comments in edited code.", "autoInject:\n  paths: ['**/*.ts']\n")
  })
  return { root, skills, goals: join(root, "goals") }
}

export interface ServerConfig {
  readonly skillSources: ReadonlyArray<string>
  readonly goals: { readonly store: "file"; readonly root: string }
  readonly sessionId?: string
  readonly mcpServers?: McpServers
}

export interface Connected {
  readonly client: Client
  readonly transport: "stdio" | "http"
}

/** An SDK client connected over stdio to a server process started for the test. */
export const connectStdio = async (config: ServerConfig, onStderr?: (text: string) => void): Promise<Connected & { readonly pid: number }> => {
  const transport = new StdioClientTransport({ command: process.execPath, args: [STDIO_SERVER, JSON.stringify(config)], stderr: "pipe" })
  transport.stderr?.on("data", (chunk: Buffer) => onStderr?.(chunk.toString("utf8")))
  const client = new Client({ name: "armory-test", version: "1.0.0" })
  await client.connect(transport)
  afterTest(() => client.close())
  const pid = transport.pid
  if (pid === null) throw new Error("the stdio server has no pid")
  return { client, transport: "stdio", pid }
}

export const TOKEN = "test-token-0123456789"

/** An SDK client connected over Streamable HTTP to a server listening on loopback for the test. */
export const connectHttp = async (config: ServerConfig): Promise<Connected & { readonly url: string }> => {
  const server = await listenMcpHttp({ ...config, catalog: { settle: 50 }, token: TOKEN })
  afterTest(() => server.close())
  const transport = new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } })
  const client = new Client({ name: "armory-test", version: "1.0.0" })
  await client.connect(transport)
  afterTest(() => client.close())
  return { client, transport: "http", url: server.url }
}

/** Resolves when `check` passes, retrying every 50 ms up to `timeoutMs`. */
export const eventually = async <A>(check: () => Promise<A>, timeoutMs = 10_000): Promise<A> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      return await check()
    } catch (error) {
      if (Date.now() > deadline) throw error
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
}
