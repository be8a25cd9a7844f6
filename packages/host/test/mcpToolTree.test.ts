import { spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createServer as createHttpServer, request as httpRequest } from "node:http"
import { type AddressInfo, createServer } from "node:net"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type ExecuteResult, execute, instructions, type ToolTree } from "@armory/codemode"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Effect, Exit, Fiber, Result, Stream } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { processAlive } from "../../browser-runtime/test/support/chromium.js"
import { collectingChannel, connectMcpServer, makeHost, type McpServerConfig, type McpServerConnection, mcpIdentifier, mcpToolTree, parseMcpConfig } from "../src/index.js"

const require = createRequire(import.meta.url)
const everythingServer = require.resolve("@modelcontextprotocol/server-everything/dist/index.js")
const hostileServer = join(import.meta.dirname, "fixtures", "hostile-mcp-server.mjs")

const directories: Array<string> = []
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true })
})
const temporary = () => {
  const directory = mkdtempSync(join(tmpdir(), "host-mcp-"))
  directories.push(directory)
  return directory
}

const everything: McpServerConfig = { command: process.execPath, args: [everythingServer, "stdio"], env: { ARMORY_NAMED: "passed" } }
const hostile = (mode: string, env: Record<string, string> = {}): McpServerConfig => ({ command: process.execPath, args: [hostileServer, mode], env })

/** Connects the named servers for the length of `body`, then closes them. */
const withServers = <A>(servers: Readonly<Record<string, McpServerConfig>>, body: (connections: Record<string, McpServerConnection>) => Promise<A>) =>
  Effect.runPromise(
    Effect.gen(function* () {
      const connections: Record<string, McpServerConnection> = {}
      for (const [name, config] of Object.entries(servers)) connections[name] = yield* connectMcpServer(name, config, { maxMessageBytes: 1024 * 1024 })
      return yield* Effect.promise(() => body(connections))
    }).pipe(Effect.scoped, Effect.provide(NodeServices.layer))
  )

const treeOf = async (connections: Record<string, McpServerConnection>): Promise<ToolTree> => {
  const entries = await Promise.all(Object.values(connections).map(async (connection) => [connection.identifier, await Effect.runPromise(connection.tree)] as const))
  return Object.fromEntries(entries)
}

const run = async (connections: Record<string, McpServerConnection>, code: string, timeoutMs = 10_000): Promise<ExecuteResult> =>
  execute(code, { tools: await treeOf(connections), timeoutMs })

/** What a hostile server logged (the calls it received, the `notifications/cancelled` it got), oldest first. */
const logged = (log: string) =>
  readFileSync(log, "utf8")
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { readonly id?: unknown; readonly requestId?: unknown })

describe("MCP servers as a code-mode tree (server-everything over stdio)", () => {
  it("lists the tools under identifiers and declares their JSON Schemas as TypeScript", async () => {
    await withServers({ everything }, async (connections) => {
      const tree = await treeOf(connections)
      expect(Object.keys(tree["everything"] ?? {})).toEqual(expect.arrayContaining(["echo", "get_sum", "get_env", "get_structured_content", "trigger_long_running_operation"]))
      const text = instructions(tree)
      expect(text).toContain("/** Echoes back the input string */")
      expect(text).toMatch(/echo\(input: \{\n\s+\/\*\* Message to echo \*\/\n\s+message: string\n\s+\}\): Promise</)
      expect(text).toMatch(/get_structured_content\(input: \{[^]*?location: "New York" \| "Chicago" \| "Los Angeles"[^]*?\}\): Promise<\{[^]*?temperature: number/)
      // A tool that requires no argument may be called with none.
      expect(text).toMatch(/get_env\(input\?: /)
    })
  })

  it("calls tools with every argument shape, structured output where declared and content otherwise", async () => {
    await withServers({ everything }, async (connections) => {
      const result = await run(
        connections,
        `const echo = await tools.everything.echo({ message: "hi" })
         const sum = await tools.everything.get_sum({ a: 2, b: 3.5 })
         const weather = await tools.everything.get_structured_content({ location: "Chicago" })
         const image = await tools.everything.get_tiny_image()
         const env = JSON.parse((await tools.everything.get_env())[0].text)
         return { echo, sum, weather, image: image.map((block) => [block.type, block.mimeType ?? null]), env: Object.keys(env).sort(), named: env.ARMORY_NAMED }`
      )
      expect(result.error).toBeUndefined()
      expect(result.result).toMatchObject({
        echo: [{ type: "text", text: "Echo: hi" }],
        sum: [{ type: "text", text: expect.stringContaining("5.5") }],
        weather: { temperature: expect.any(Number), conditions: expect.any(String) },
        named: "passed"
      })
      expect((result.result as { image: Array<[string, string | null]> }).image).toContainEqual(["image", "image/png"])
      // Only what the configuration names reaches the server, and PATH to find its command.
      expect((result.result as { env: Array<string> }).env).toEqual(["ARMORY_NAMED", "PATH"])
    })
  })

  it("refuses input its JSON Schema rejects before the server sees it, and passes the server's error text on", async () => {
    await withServers({ everything }, async (connections) => {
      const result = await run(
        connections,
        `const outcomes = []
         for (const call of [() => tools.everything.get_sum({ a: "two", b: 3 }), () => tools.everything.echo({}),
                             () => tools.everything.get_resource_reference({ resourceType: "Text", resourceId: -1 })]) {
           try { await call(); outcomes.push("ok") } catch (error) { outcomes.push([error._tag, error.message, error.text ?? null]) }
         }
         return outcomes`
      )
      expect(result.status).toBe("completed")
      const [badSum, noMessage, serverError] = result.result as Array<[string, string, string | null]>
      expect(badSum?.[1]).toMatch(/\/a must be number/)
      expect(noMessage?.[1]).toMatch(/must have required property 'message'/)
      expect(serverError).toEqual(["McpToolError", expect.stringContaining("everything.get-resource-reference failed: "), expect.stringContaining("resourceId")])
      expect(result.calls.map(({ status }) => status)).toEqual(["error", "error", "error"])
    })
  })

  it("puts MCP calls through authorize and the execution's call limit like any other", async () => {
    const log = join(temporary(), "cancelled.jsonl")
    await withServers({ everything, silent: hostile("silent", { CANCEL_LOG: log }) }, async (connections) => {
      const tools = await treeOf(connections)
      const seen: Array<{ path: string; input: unknown }> = []
      const denied = await execute(
        `const outcomes = []
         for (const call of [() => tools.everything.echo({ message: "allowed" }), () => tools.silent.ping()]) {
           try { outcomes.push((await call())[0].text) } catch (error) { outcomes.push(error._tag) }
         }
         return outcomes`,
        { tools, authorize: (call) => (seen.push(call), call.path !== "silent.ping") }
      )
      expect(denied.result).toEqual(["Echo: allowed", "ToolCallDenied"])
      expect(seen).toEqual([
        { path: "everything.echo", input: { message: "allowed" } },
        { path: "silent.ping", input: undefined }
      ])
      const limited = await execute("for (let i = 0; i < 5; i++) await tools.everything.echo({ message: String(i) }); return 'all'", { tools, maxToolCalls: 3 })
      expect(limited.status).toBe("error")
      expect(limited.calls.map(({ status }) => status)).toEqual(["ok", "ok", "ok", "denied"])
    })
  })

  it("ends a long-running call at the execution's time limit and keeps the server usable", async () => {
    await withServers({ everything }, async (connections) => {
      const slow = await run(connections, "return await tools.everything.trigger_long_running_operation({ duration: 30, steps: 30 })", 1000)
      expect(slow.status).toBe("timeout")
      const after = await run(connections, 'return await tools.everything.echo({ message: "still here" })')
      expect(after.result).toEqual([{ type: "text", text: "Echo: still here" }])
    })
  })
})

describe("MCP servers over Streamable HTTP", () => {
  it("calls server-everything's tools at its URL, with the headers the configuration names", async () => {
    const port = await freePort()
    const server = spawn(process.execPath, [everythingServer, "streamableHttp"], { env: { PATH: process.env["PATH"] ?? "", PORT: String(port) }, stdio: ["ignore", "ignore", "pipe"] })
    try {
      await new Promise<void>((resolve, reject) => {
        server.stderr.setEncoding("utf8").on("data", (chunk: string) => {
          if (chunk.includes("listening")) resolve()
        })
        server.once("exit", (code) => reject(new Error(`server-everything exited with ${code}`)))
      })
      // A pass-through in front of the server records the headers each request arrived with, and its method.
      const seen: Array<string | undefined> = []
      const methods: Array<string> = []
      const proxy = createHttpServer((request, response) => {
        seen.push(request.headers["x-armory-test"] as string | undefined)
        const forwarded = httpRequest({ host: "127.0.0.1", port, path: request.url, method: request.method, headers: request.headers }, (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(response)
        })
        const body: Array<Buffer> = []
        request.on("data", (chunk: Buffer) => body.push(chunk))
        request.on("end", () => {
          if (body.length > 0) methods.push(String(JSON.parse(Buffer.concat(body).toString("utf8")).method))
        })
        request.pipe(forwarded)
      })
      await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve))
      try {
        const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/mcp`
        await withServers({ remote: { type: "http", url, headers: { "x-armory-test": "named" } } }, async (connections) => {
          const result = await run(connections, 'return [(await tools.remote.echo({ message: "over http" }))[0].text, (await tools.remote.get_sum({ a: 1, b: 1 }))[0].text]')
          expect(result.result).toEqual(["Echo: over http", expect.stringContaining("is 2")])
          // server-everything declares tools.listChanged, but no notification reaches a client over
          // HTTP here, so its tools are listed again every time.
          const before = methods.filter((method) => method === "tools/list").length
          await Effect.runPromise(connections.remote?.refresh ?? Effect.void)
          await Effect.runPromise(connections.remote?.refresh ?? Effect.void)
          expect(methods.filter((method) => method === "tools/list").length).toBe(before + 2)
        })
        expect(seen.length).toBeGreaterThan(2)
        expect(new Set(seen)).toEqual(new Set(["named"]))
      } finally {
        proxy.closeAllConnections()
        await new Promise((resolve) => proxy.close(resolve))
      }
    } finally {
      server.kill("SIGKILL")
    }
  })
})

describe("hostile MCP servers", () => {
  it("ends a call whose answer is over maxMessageBytes as an internal error, with the host unharmed", async () => {
    await withServers({ big: hostile("big") }, async (connections) => {
      const result = await run(connections, "try { await tools.big.dump() } catch (error) { return [error._tag, error.message] }")
      expect(result.status).toBe("completed")
      expect(result.result).toEqual(["InternalToolError", expect.any(String)])
      expect(JSON.stringify(result).length).toBeLessThan(10_000)
    })
  })

  it("cancels a call that never answers when the execution times out, telling the server", async () => {
    const log = join(temporary(), "cancelled.jsonl")
    const calls = join(temporary(), "calls.jsonl")
    writeFileSync(log, "")
    writeFileSync(calls, "")
    await withServers({ silent: hostile("silent", { CANCEL_LOG: log, CALL_LOG: calls }) }, async (connections) => {
      // A limit the call reaches the server well within, even on a loaded machine: the cancellation is of a call the server has.
      const result = await run(connections, "await tools.silent.ping(); return await tools.silent.wait()", 3000)
      expect(result.status).toBe("timeout")
      const received = logged(calls)
      expect(received).toHaveLength(1)
      const pinged = await run(connections, "return await tools.silent.ping()")
      expect(pinged.result).toEqual([{ type: "text", text: "ping answered" }])
      // The cancellation goes out as the timed-out call is torn down, not before the execution answers: wait for the server to log it.
      for (let waited = 0; logged(log).length === 0 && waited < 10_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50))
      const cancelled = logged(log)
      expect(cancelled).toHaveLength(1)
      expect(cancelled[0]?.requestId).toEqual(received[0]?.id)
    })
  })

  it("turns a server that exits mid-call into an internal error", async () => {
    await withServers({ crash: hostile("exit") }, async (connections) => {
      const result = await run(connections, "try { await tools.crash.crash() } catch (error) { return error._tag }")
      expect(result).toMatchObject({ status: "completed", result: "InternalToolError" })
    })
  })

  it("makes names identifiers predictably and refuses two that collide", async () => {
    expect(["bad name!", "123go", "a-b", "get-sum", "__proto__", ""].map(mcpIdentifier)).toEqual(["bad_name_", "_123go", "a_b", "get_sum", "__proto___", "_"])
    const exit = await Effect.runPromiseExit(
      connectMcpServer("names", hostile("names")).pipe(Effect.scoped, Effect.provide(NodeServices.layer))
    )
    expect(Exit.isFailure(exit) && JSON.stringify(exit.cause)).toContain("McpToolNamesCollide")
    expect(String(Exit.isFailure(exit) ? exit.cause : "")).toContain('the tools "a-b" and "a_b" would both be tools.names.a_b')
  })

  it("leaves out a tool whose schema is past the bounds and keeps the others", async () => {
    await withServers({ schema: hostile("schema") }, async (connections) => {
      const connection = connections["schema"] as McpServerConnection
      expect(Object.keys(await Effect.runPromise(connection.tree))).toEqual(["ok"])
      expect(await Effect.runPromise(connection.skipped)).toEqual([{ name: "deep", reason: "inputSchema is nested deeper than 32 levels" }])
    })
  })

  it("offers at most 500 tools of one server and lists the rest as skipped", async () => {
    await withServers({ many: hostile("many") }, async (connections) => {
      const connection = connections["many"] as McpServerConnection
      expect(Object.keys(await Effect.runPromise(connection.tree))).toHaveLength(500)
      const skipped = await Effect.runPromise(connection.skipped)
      expect(skipped).toHaveLength(100)
      expect(skipped[0]).toEqual({ name: "tool500", reason: "the server lists 600 tools, more than the 500 offered" })
    })
  })

  it("names a server it cannot start", async () => {
    const exit = await Effect.runPromiseExit(
      connectMcpServer("missing", { command: join(temporary(), "no-such-server") }).pipe(Effect.scoped, Effect.provide(NodeServices.layer))
    )
    expect(String(Exit.isFailure(exit) ? exit.cause : "")).toContain('MCP server "missing" is unavailable')
  })
})

const reason = (text: string) => {
  const parsed = parseMcpConfig(text, { file: ".mcp.json", env: {} })
  return Result.isFailure(parsed) ? parsed.failure.message : "accepted"
}

describe("parseMcpConfig", () => {
  it("reads a .mcp.json with stdio and HTTP servers and expands the variables it names", () => {
    const parsed = parseMcpConfig(
      JSON.stringify({
        mcpServers: {
          files: { command: "npx", args: ["-y", "server", "${ROOT:-/tmp}"], env: { TOKEN: "${SECRET}" } },
          remote: { type: "http", url: "https://mcp.example.com/mcp", headers: { authorization: "Bearer ${SECRET}" } }
        }
      }),
      { env: { SECRET: "s3" } }
    )
    expect(parsed).toEqual(
      Result.succeed({
        files: { command: "npx", args: ["-y", "server", "/tmp"], env: { TOKEN: "s3" } },
        remote: { type: "http", url: "https://mcp.example.com/mcp", headers: { authorization: "Bearer s3" } }
      })
    )
  })

  it("names what is wrong with a configuration it refuses", () => {
    expect(reason("{")).toMatch(/^\.mcp\.json: not JSON/)
    expect(reason(JSON.stringify({ mcpServers: { a: { command: "x", env: { K: "${NOPE}" } } } }))).toBe(".mcp.json: mcpServers.a.env.K names ${NOPE}, which is not set and has no default")
    expect(reason(JSON.stringify({ mcpServers: { a: { type: "sse", url: "https://x.example/sse" } } }))).toContain('the "sse" transport is not supported')
    expect(reason(JSON.stringify({ mcpServers: { a: { url: "file:///etc/passwd" } } }))).toContain("an http or https URL")
    expect(reason(JSON.stringify({ mcpServers: { a: { command: 3 } } }))).toContain("command")
    expect(reason(JSON.stringify({ mcpServers: Object.fromEntries(Array.from({ length: 65 }, (_, index) => [`s${index}`, { command: "x" }])) }))).toContain("65 servers, more than the 64 allowed")
  })
})

const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const probe = createServer()
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo
      probe.close(() => resolve(port))
    })
  })


/** Runs `codes` one after another on a host with a server of the `mode` given (`plain` by default) named `plain`, returning their results and how often its tools were listed. */
const executions = async (env: Record<string, string>, codes: ReadonlyArray<string>, pauseMs = 0, mode = "plain") => {
  const directory = temporary()
  const listLog = join(directory, "lists.log")
  writeFileSync(listLog, "")
  const results = await Effect.runPromise(
    Effect.gen(function* () {
      const host = yield* makeHost({
        skillSources: [],
        catalog: { watch: false },
        goals: { store: "file", root: join(directory, "goals") },
        mcpServers: { plain: hostile(mode, { LIST_LOG: listLog, ...env }) }
      })
      const answers: Array<unknown> = []
      for (const code of codes) {
        const outcome = yield* host.execute(code, { channel: collectingChannel("t") })
        answers.push(outcome.status === "completed" ? outcome.result : outcome.error?._tag)
        yield* Effect.sleep(pauseMs)
      }
      return answers
    }).pipe(Effect.scoped, Effect.provide(NodeServices.layer))
  )
  return { results, listings: readFileSync(listLog, "utf8").split("\n").filter(Boolean).length }
}
const PID = "return Number((await tools.plain.pid())[0].text) > 0"
const GROW = "return (await tools.plain.grow())[0].text"
const GROWN = "return (await tools.plain.grown2())[0].text"

describe("MCP servers in a host", () => {
  it("starts each server once, reuses it across executions, sees its new tools, and stops it with the host", async () => {
    const goals = join(temporary(), "goals")
    const pids = await Effect.runPromise(
      Effect.gen(function* () {
        const host = yield* makeHost({ skillSources: [], catalog: { watch: false }, goals: { store: "file", root: goals }, mcpServers: { plain: hostile("plain") } })
        expect(host.instructions()).toContain("plain: {")
        const first = yield* host.execute("const pid = (await tools.plain.pid())[0].text; await tools.plain.grow(); return Number(pid)", { channel: collectingChannel("t") })
        const second = yield* host.execute("return [Number((await tools.plain.pid())[0].text), (await tools.plain.grown2())[0].text]", { channel: collectingChannel("t") })
        return { first: first.result as number, second: second.result as [number, string] }
      }).pipe(Effect.scoped, Effect.provide(NodeServices.layer))
    )
    expect(pids.second[0]).toBe(pids.first)
    // The tool `grow` added was listed before the second execution.
    expect(pids.second[1]).toBe("grown2 answered")
    // Closing the host stopped the server's process.
    expect(processAlive(pids.first)).toBe(false)
  })

  it("lists a server that declares tools.listChanged again only after it said its tools changed", async () => {
    const { results, listings } = await executions({ LIST_CHANGED: "declared" }, [PID, PID, GROW, GROWN, PID])
    expect(results).toEqual([true, true, "grown", "grown2 answered", true])
    // Once when it started, and once after `grow`'s notification.
    expect(listings).toBe(2)
  })

  it("lists a notified server again at once, and says the host's tools changed, before any execution asks", async () => {
    const described = await Effect.runPromise(
      Effect.gen(function* () {
        const host = yield* makeHost({
          skillSources: [],
          catalog: { watch: false },
          goals: { store: "file", root: join(temporary(), "goals") },
          mcpServers: { plain: hostile("plain", { LIST_CHANGED: "declared" }) }
        })
        const changed = yield* host.toolsChanged.pipe(Stream.take(1), Stream.runDrain, Effect.forkScoped)
        yield* Effect.yieldNow
        const before = host.instructions()
        yield* host.execute(GROW, { channel: collectingChannel("t") })
        yield* Fiber.join(changed).pipe(Effect.timeout("5 seconds"))
        return { before, after: host.instructions() }
      }).pipe(Effect.scoped, Effect.provide(NodeServices.layer))
    )
    expect(described.before).not.toContain("grown2")
    expect(described.after).toContain("grown2(")
  })

  it("sees the notification even when it arrives in two pieces", async () => {
    const { results, listings } = await executions({ LIST_CHANGED: "split" }, [GROW, GROWN], 300)
    expect(results).toEqual(["grown", "grown2 answered"])
    expect(listings).toBe(2)
  })

  it("lists a server that floods the notification a few times, not once per notification", async () => {
    const flood = "return (await tools.plain.flood())[0].text"
    const { results, listings } = await executions({ LIST_CHANGED: "declared" }, [flood, flood, flood], 300, "flood")
    expect(results).toEqual(["flooded", "flooded", "flooded"])
    // 15,000 notifications in all; a listing that one of them asked for answers the rest that arrived meanwhile.
    expect(listings).toBeLessThan(20)
  })

  it("lists a server that promises no notification again before every execution", async () => {
    const { results, listings } = await executions({}, [PID, PID, PID])
    expect(results).toEqual([true, true, true])
    expect(listings).toBe(4)
  })

  it("refuses a server named like one of the host's namespaces, before starting anything", async () => {
    const exit = await Effect.runPromiseExit(
      makeHost({ skillSources: [], catalog: { watch: false }, goals: { store: "file", root: join(temporary(), "goals") }, mcpServers: { skills: hostile("plain") } }).pipe(
        Effect.scoped,
        Effect.provide(NodeServices.layer)
      )
    )
    expect(String(Exit.isFailure(exit) ? exit.cause : "")).toContain('"the namespace skills" and "skills" would both be tools.skills')
  })

  it("offers the same servers to a caller without Effect, until it closes them", async () => {
    const trees = await mcpToolTree({ everything, plain: hostile("plain") })
    try {
      const result = await execute('return [(await tools.everything.echo({ message: "p" }))[0].text, Number((await tools.plain.pid())[0].text)]', { tools: trees.tools })
      expect(result.result).toEqual(["Echo: p", expect.any(Number)])
      expect(trees.skipped).toEqual({ everything: [], plain: [] })
      const pid = (result.result as [string, number])[1]
      await trees.close()
      expect(processAlive(pid)).toBe(false)
    } finally {
      await trees.close()
    }
  })
})
