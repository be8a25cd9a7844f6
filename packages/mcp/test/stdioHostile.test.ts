import { spawn } from "node:child_process"
import { once } from "node:events"
import { describe, expect, it } from "vitest"
import { project, STDIO_SERVER } from "./support/clients.js"

const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } } }

/** The stdio server as a raw process: what it writes, and how it ends. */
const start = (maxMessageBytes: number) => {
  const dirs = project()
  const server = spawn(process.execPath, [STDIO_SERVER, JSON.stringify({ skillSources: [dirs.skills], goals: { store: "file", root: dirs.goals }, maxMessageBytes })], {
    stdio: ["pipe", "pipe", "pipe"]
  })
  let stdout = ""
  let stderr = ""
  server.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
  server.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
  server.stdin.on("error", () => undefined)
  return { server, exited: once(server, "exit"), out: () => stdout, err: () => stderr }
}

const waitFor = async (check: () => boolean) => {
  const deadline = Date.now() + 20_000
  while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25))
}

describe("the stdio transport under hostile input", () => {
  it("stops reading at a message over the cap instead of buffering it, and says why", async () => {
    const running = start(64 * 1024)
    running.server.stdin.write(`${JSON.stringify(initialize)}\n`)
    await waitFor(() => running.out().includes('"id":1'))
    // 1 MiB with no newline, sent in pieces: the server must stop before the line ends.
    const piece = "a".repeat(64 * 1024)
    for (let index = 0; index < 16; index++) running.server.stdin.write(piece)
    const [code] = await running.exited
    expect(code).toBe(0)
    expect(running.err()).toContain("a message on stdin is over the 65536-byte limit; the server stops reading")
    for (const line of running.out().split("\n").filter((text) => text !== "")) expect(JSON.parse(line)).toEqual(expect.objectContaining({ jsonrpc: "2.0" }))
  })

  it("answers garbage lines with JSON-RPC errors and keeps serving", async () => {
    const running = start(64 * 1024)
    for (const line of ["{not json", "[]", '{"jsonrpc":"2.0","id":7,"method":"tools/list"}', "\u00ff\u00fe not utf-8 is written as text here", JSON.stringify(initialize), "null"]) running.server.stdin.write(`${line}\n`)
    running.server.stdin.write(Buffer.from([0xff, 0xfe, 0x7b, 0x0a]))
    running.server.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`)
    running.server.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "skills_list", arguments: {} } })}\n`)
    await waitFor(() => running.out().includes('"id":2'))
    running.server.stdin.end()
    const [code] = await running.exited
    expect(code).toBe(0)
    const messages = running.out().split("\n").filter((text) => text !== "").map((line) => JSON.parse(line) as { id?: unknown; error?: unknown; result?: unknown })
    expect(messages.find((message) => message.id === 2)?.result).toEqual(expect.objectContaining({ isError: false }))
    const parseErrors = messages.filter((message) => (message.error as { code?: number } | undefined)?.code === -32700)
    expect(parseErrors).toHaveLength(3)
  })

  it("answers a JSON object that is no JSON-RPC message, and a request before initialize, with an error naming it", async () => {
    const running = start(64 * 1024)
    const lines = [
      { jsonrpc: "2.0", id: 5, method: "tools/list" },
      { jsonrpc: "2.0", id: 6, method: "ping" },
      { foo: 1 },
      { jsonrpc: "1.0", id: 8, method: "ping" },
      { jsonrpc: "2.0", id: 9 },
      { jsonrpc: "2.0", id: 10, method: 42 },
      { jsonrpc: "2.0", id: 11, params: { method: "initialize" } },
      initialize,
      { jsonrpc: "2.0", id: 12, method: "tools/list" }
    ]
    for (const line of lines) running.server.stdin.write(`${JSON.stringify(line)}\n`)
    await waitFor(() => running.out().includes('"id":12'))
    running.server.stdin.end()
    await running.exited
    const messages = running.out().split("\n").filter((text) => text !== "").map((line) => JSON.parse(line) as { id?: unknown; error?: { code: number; message: string }; result?: unknown })
    const answerTo = (id: unknown) => messages.find((message) => message.id === id)
    expect(answerTo(5)?.error).toEqual({ code: -32600, message: 'Invalid Request: "tools/list" before initialize; send initialize first' })
    expect(answerTo(6)?.result).toEqual({})
    expect(messages.filter((message) => message.id === null).map((message) => message.error?.code)).toEqual([-32600])
    for (const id of [8, 9, 10, 11]) expect({ id, code: answerTo(id)?.error?.code }).toEqual({ id, code: -32600 })
    expect(answerTo(9)?.error?.message).toContain('"method"')
    expect(answerTo(12)?.result).toEqual(expect.objectContaining({ tools: expect.any(Array) }))
  })
})
