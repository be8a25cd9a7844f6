import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { initializeAnswer, MCP_PROTOCOL_VERSIONS } from "@armory/mcp"
import { afterEach, describe, expect, it } from "vitest"

const bin = join(import.meta.dirname, "..", "dist", "bin.js")

const cleanups: Array<() => void> = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})

/** `armory mcp` on stdio, and every JSON line it writes, as they arrive. */
const server = () => {
  const cwd = mkdtempSync(join(tmpdir(), "armory-mcp-fast-"))
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [bin, "mcp", "--dir", cwd], { cwd, stdio: ["pipe", "pipe", "pipe"] })
  cleanups.push(() => {
    child.kill("SIGKILL")
    rmSync(cwd, { recursive: true, force: true })
  })
  const messages: Array<Record<string, unknown>> = []
  let buffered = ""
  child.stdout.setEncoding("utf8")
  child.stdout.on("data", (chunk: string) => {
    buffered += chunk
    const lines = buffered.split("\n")
    buffered = lines.pop() ?? ""
    for (const line of lines) if (line !== "") messages.push(JSON.parse(line) as Record<string, unknown>)
  })
  const answerTo = async (id: unknown): Promise<Record<string, unknown>> => {
    for (let waited = 0; waited < 30_000; waited += 20) {
      const found = messages.find((message) => message["id"] === id)
      if (found !== undefined) return found
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    throw new Error(`no answer to ${JSON.stringify(id)}; got ${JSON.stringify(messages)}`)
  }
  const send = (text: string) => child.stdin.write(text)
  return { child, messages, answerTo, send }
}

const initialize = (id: string | number, protocolVersion: string) =>
  JSON.stringify({ jsonrpc: "2.0", id, method: "initialize", params: { protocolVersion, capabilities: {}, clientInfo: { name: "fast-start-test", version: "1" } } })

describe("armory mcp answers initialize before the server has loaded", () => {
  it("answers as the server itself does, for every revision it speaks and for one it does not", async () => {
    for (const version of [...MCP_PROTOCOL_VERSIONS, "1999-01-01"]) {
      // A first message that is not initialize leaves everything to the server, so its own answer can be compared.
      const slow = server()
      slow.send(`${JSON.stringify({ jsonrpc: "2.0", id: "first", method: "ping" })}\n${initialize(7, version)}\n`)
      const own = await slow.answerTo(7)
      const fast = server()
      fast.send(`${initialize(7, version)}\n`)
      expect(await fast.answerTo(7)).toEqual(own)
      expect(JSON.parse(initializeAnswer(initialize(7, version), "0.0.0")?.response ?? "{}")).toEqual({ ...own, result: { ...(own["result"] as object), serverInfo: { name: "armory", version: "0.0.0" } } })
    }
  })

  it("gives the server what it read: one answer to initialize, then the session goes on, whatever the chunking", async () => {
    const { answerTo, messages, send } = server()
    const line = initialize("init", "2025-06-18")
    send(line.slice(0, 40))
    await new Promise((resolve) => setTimeout(resolve, 50))
    send(`${line.slice(40)}\n${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" })}\n`)
    const tools = await answerTo(2)
    expect((tools["result"] as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name)).toContain("goal_status")
    send(`${JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "goal_status", arguments: {} } })}\n`)
    expect(await answerTo(3)).toHaveProperty("result")
    expect(messages.filter((message) => message["id"] === "init")).toHaveLength(1)
  })

  it("leaves a malformed first message to the server, which answers it", async () => {
    const { answerTo, send } = server()
    send(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 5 } })}\n${initialize(2, "2025-06-18")}\n`)
    expect(await answerTo(1)).toHaveProperty("error")
    expect(await answerTo(2)).toHaveProperty("result.protocolVersion", "2025-06-18")
  })
})
