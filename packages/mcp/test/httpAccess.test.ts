import { request } from "node:http"
import { listenMcpHttp } from "../src/index.js"
import { describe, expect, it } from "vitest"
import { afterTest, project, TOKEN } from "./support/clients.js"

interface Answer {
  readonly status: number
  readonly headers: Record<string, string | Array<string> | undefined>
  readonly body: string
}

/** A raw HTTP request, so that the headers are exactly the ones given (fetch would set Host itself). */
const send = (url: string, options: { readonly method?: string; readonly headers?: Record<string, string>; readonly body?: string | Buffer }): Promise<Answer> =>
  new Promise((resolve, reject) => {
    const target = new URL(url)
    const outgoing = request(
      { host: target.hostname, port: target.port, path: target.pathname, method: options.method ?? "POST", headers: options.headers ?? {}, setHost: false },
      (response) => {
        let body = ""
        response.setEncoding("utf8").on("data", (chunk: string) => (body += chunk))
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }))
      }
    )
    outgoing.on("error", reject)
    outgoing.end(options.body)
  })

/** A `GET` of the notification stream: its status once the headers arrive, its first bytes, and when it ends. */
const openStream = (url: string, headers: Record<string, string>) =>
  new Promise<{ readonly status: number; readonly first: Promise<string>; readonly ended: Promise<void> }>((resolve, reject) => {
    const target = new URL(url)
    const outgoing = request({ host: target.hostname, port: target.port, path: target.pathname, method: "GET", headers, setHost: false }, (response) => {
      response.setEncoding("utf8")
      const first = new Promise<string>((resolveFirst) => response.once("data", (chunk: string) => resolveFirst(chunk)))
      const ended = new Promise<void>((resolveEnd) => {
        response.on("end", () => resolveEnd())
        response.on("close", () => resolveEnd())
      })
      response.resume()
      afterTest(() => {
        outgoing.destroy()
      })
      resolve({ status: response.statusCode ?? 0, first, ended })
    })
    outgoing.on("error", reject)
    outgoing.end()
  })

/** Settles with `promise`'s value, or with "timed out" after `ms`. */
const within = <A>(promise: Promise<A>, ms: number): Promise<A | "timed out"> =>
  Promise.race([promise, new Promise<"timed out">((resolve) => setTimeout(() => resolve("timed out"), ms))])

const start = async () => {
  const dirs = project()
  const server = await listenMcpHttp({ skillSources: [dirs.skills], goals: { store: "file", root: dirs.goals }, catalog: { watch: false }, token: TOKEN, maxMessageBytes: 64 * 1024 })
  afterTest(() => server.close())
  return server
}

const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } }
})

const goalSet = (objective: string) =>
  JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "goal_set", arguments: { objective } } })

const headersFor = (url: string, extra: Record<string, string> = {}) => ({
  host: new URL(url).host,
  authorization: `Bearer ${TOKEN}`,
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  ...extra
})

describe("the Streamable HTTP endpoint's access checks", () => {
  it("answers an initialize that carries the token and names the server", async () => {
    const server = await start()
    const answer = await send(server.url, { headers: headersFor(server.url), body: initialize })
    expect(answer.status).toBe(200)
    expect(answer.body).toContain('"serverInfo"')
    expect(answer.headers["mcp-session-id"]).toBeTypeOf("string")
  })

  it("refuses a missing or wrong token with 401, before reading the body", async () => {
    const server = await start()
    const { authorization: _, ...withoutToken } = headersFor(server.url)
    const missing = await send(server.url, { headers: withoutToken, body: initialize })
    expect(missing.status).toBe(401)
    expect(missing.headers["www-authenticate"]).toBe("Bearer")
    expect(JSON.parse(missing.body)).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32001, message: expect.stringMatching(/Bearer/) } })
    const wrong = await send(server.url, { headers: headersFor(server.url, { authorization: `Bearer ${TOKEN}x` }), body: initialize })
    expect(wrong.status).toBe(401)
    const notBearer = await send(server.url, { headers: headersFor(server.url, { authorization: `Basic ${TOKEN}` }), body: initialize })
    expect(notBearer.status).toBe(401)
  })

  it("refuses a Host header that names another server (DNS rebinding) with 421, even with the token", async () => {
    const server = await start()
    const port = new URL(server.url).port
    for (const host of [`evil.example:${port}`, `127.0.0.1:${Number(port) + 1}`, `127.0.0.1:${port}.evil.example`, ""]) {
      const answer = await send(server.url, { headers: headersFor(server.url, { host }), body: initialize })
      expect({ host, status: answer.status }).toEqual({ host, status: 421 })
    }
    const localhost = await send(server.url, { headers: headersFor(server.url, { host: `localhost:${port}` }), body: initialize })
    expect(localhost.status).toBe(200)
  })

  it("refuses a request from a page elsewhere (an Origin not its own) and a body over the cap", async () => {
    const server = await start()
    const port = new URL(server.url).port
    for (const origin of ["https://evil.example", `http://127.0.0.1:${Number(port) + 1}`, `https://127.0.0.1:${port}`, "null"]) {
      const fromPage = await send(server.url, { headers: headersFor(server.url, { origin }), body: initialize })
      expect({ origin, status: fromPage.status }).toEqual({ origin, status: 403 })
    }
    for (const origin of [`http://127.0.0.1:${port}`, `http://localhost:${port}`]) {
      const own = await send(server.url, { headers: headersFor(server.url, { origin }), body: initialize })
      expect({ origin, status: own.status }).toEqual({ origin, status: 200 })
    }
    const declared = Buffer.from(goalSet("a".repeat(256 * 1024)))
    const tooLarge = await send(server.url, { headers: headersFor(server.url, { "content-length": String(declared.length) }), body: declared })
    expect(tooLarge.status).toBe(413)
    expect(JSON.parse(tooLarge.body).error.message).toBe("the request body is over the 65536-byte limit")
    // Without a declared length the body is cut as it is read: what arrives is not a request.
    const padded = JSON.parse(initialize) as { params: { clientInfo: { name: string } } }
    padded.params.clientInfo.name = "a".repeat(256 * 1024)
    const chunked = await send(server.url, { headers: headersFor(server.url, { "transfer-encoding": "chunked" }), body: JSON.stringify(padded) })
    expect(chunked.status).toBe(413)
    expect(chunked.body).not.toContain('"serverInfo"')
    const small = await send(server.url, { headers: headersFor(server.url, { "transfer-encoding": "chunked" }), body: initialize })
    expect(small.body).toContain('"serverInfo"')
  })

  it("answers malformed JSON-RPC with a JSON-RPC error and keeps serving", async () => {
    const server = await start()
    const garbage = await send(server.url, { headers: headersFor(server.url), body: "{not json" })
    expect(garbage.status).toBe(400)
    expect(JSON.parse(garbage.body)).toEqual(expect.objectContaining({ jsonrpc: "2.0", id: null, error: expect.objectContaining({ code: -32700 }) }))
    for (const body of ['{"foo":1}', "42", '"text"']) {
      const notRpc = await send(server.url, { headers: headersFor(server.url), body })
      expect({ body, status: notRpc.status, code: JSON.parse(notRpc.body).error?.code }).toEqual({ body, status: 400, code: -32600 })
    }
    const beforeInitialize = await send(server.url, { headers: headersFor(server.url), body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' })
    expect(beforeInitialize.status).toBe(400)
    expect(JSON.parse(beforeInitialize.body).error.message).toMatch(/initialize/)
    const deep = await send(server.url, { headers: headersFor(server.url), body: `${"[".repeat(30_000)}${"]".repeat(30_000)}` })
    expect(deep.status).toBeLessThan(500)
    const after = await send(server.url, { headers: headersFor(server.url), body: initialize })
    expect(after.status).toBe(200)
  })

  it("opens the notification stream only for a session, and only with the token", async () => {
    const server = await start()
    const { "content-type": _, ...getHeaders } = headersFor(server.url, { accept: "text/event-stream" })
    const withoutSession = await send(server.url, { method: "GET", headers: getHeaders })
    expect(withoutSession.status).toBe(400)
    const { authorization: __, ...anonymous } = getHeaders
    const withoutToken = await send(server.url, { method: "GET", headers: { ...anonymous, "mcp-session-id": "abc" } })
    expect(withoutToken.status).toBe(401)
    const unknown = await send(server.url, { method: "GET", headers: { ...getHeaders, "mcp-session-id": "never-given-out" } })
    expect(unknown.status).toBe(404)
  })

  it("ends a session's notification stream when the session is deleted, and opens none for it after", async () => {
    const server = await start()
    const opened = await send(server.url, { headers: headersFor(server.url), body: initialize })
    const session = String(opened.headers["mcp-session-id"])
    const { "content-type": _, ...getHeaders } = headersFor(server.url, { accept: "text/event-stream", "mcp-session-id": session })
    const stream = await openStream(server.url, getHeaders)
    expect(stream.status).toBe(200)
    expect(await within(stream.first, 5_000)).toContain(": armory notifications")
    const deleted = await send(server.url, { method: "DELETE", headers: headersFor(server.url, { "mcp-session-id": session }) })
    expect(deleted.status).toBeLessThan(300)
    expect(await within(stream.ended, 5_000)).toBeUndefined()
    const again = await send(server.url, { method: "GET", headers: getHeaders })
    expect(again.status).toBe(404)
  })

  it("accepts any protocol version it speaks in MCP-Protocol-Version, whichever the session negotiated, and refuses one it does not", async () => {
    const server = await start()
    const opened = await send(server.url, { headers: headersFor(server.url), body: initialize })
    const session = String(opened.headers["mcp-session-id"])
    const list = JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/list" })
    const other = await send(server.url, { headers: headersFor(server.url, { "mcp-session-id": session, "mcp-protocol-version": "2025-06-18" }), body: list })
    expect(other.status).toBe(200)
    expect(other.body).toContain('"goal_set"')
    const unknown = await send(server.url, { headers: headersFor(server.url, { "mcp-session-id": session, "mcp-protocol-version": "1999-01-01" }), body: list })
    expect(unknown.status).toBe(400)
  })
})
