import * as NodeChildProcessSpawner from "@effect/platform-node/NodeChildProcessSpawner"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import type { Tool, ToolTree } from "@armory/codemode"
import { Ajv, type ValidateFunction } from "ajv"
import { Ajv2020 } from "ajv/dist/2020.js"
import { Data, Duration, Effect, Exit, type FileSystem, Layer, type Path, PubSub, Queue, Ref, Schema, Scope, Semaphore, Stream } from "effect"
import { McpClient, McpProtocol, McpSchema } from "effect/ai"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import { ChildProcess } from "effect/process"
import { makeToolListWatch, type ToolListWatch } from "./internal/ToolListWatch.js"
import type { McpServerConfig } from "./McpServerConfig.js"

/** A tool that answered with `isError`: the server's own words, bounded, reach the guest. */
export class McpToolError extends Schema.TaggedError<McpToolError>()("McpToolError", {
  server: Schema.String,
  tool: Schema.String,
  text: Schema.String
}) {
  override get message(): string {
    return `${this.server}.${this.tool} failed: ${this.text}`
  }
}

/** Two tool names of one server that become the same identifier: neither could be called by its name. */
export class McpToolNamesCollide extends Schema.TaggedError<McpToolNamesCollide>()("McpToolNamesCollide", {
  server: Schema.String,
  identifier: Schema.String,
  names: Schema.Array(Schema.String)
}) {
  override get message(): string {
    return `${this.server}: the tools ${this.names.map((name) => JSON.stringify(name)).join(" and ")} would both be tools.${this.server}.${this.identifier}`
  }
}

/**
 * A call the connection failed (the server exited, its answer was too large, it broke the
 * protocol): internal, so the guest is told only that the call failed, as for any host fault.
 */
class McpTransportFailure extends Data.TaggedError("McpTransportFailure")<{ readonly server: string; readonly tool: string; readonly reason: string }> {
  override get message(): string {
    return `${this.server}.${this.tool}: ${this.reason}`
  }
}

/** A server that could not be started, connected to or listed. */
export class McpServerUnavailable extends Schema.TaggedError<McpServerUnavailable>()("McpServerUnavailable", {
  server: Schema.String,
  reason: Schema.String
}) {
  override get message(): string {
    return `MCP server ${JSON.stringify(this.server)} is unavailable: ${this.reason}`
  }
}

export interface McpToolTreeOptions {
  /** The largest message the server may send (default 4 MiB): a larger one ends the call as a transport failure. */
  readonly maxMessageBytes?: number | undefined
  /** How long starting, initializing and listing may take (default 30 s). */
  readonly connectTimeoutMs?: number | undefined
}

/** A tool left out of the tree, and why (its schema is unusable or too large). */
export interface SkippedMcpTool {
  readonly name: string
  readonly reason: string
}

/** One connected server: its tools as a code-mode tree, kept current by {@link McpServerConnection.refresh}. */
export interface McpServerConnection {
  /** The name the configuration gives it. */
  readonly name: string
  /** Its namespace in the tree: the name made an identifier. */
  readonly identifier: string
  /** The tools as last listed. */
  readonly tree: Effect.Effect<ToolTree>
  /** The tools left out at the last listing. */
  readonly skipped: Effect.Effect<ReadonlyArray<SkippedMcpTool>>
  /**
   * The tools as they are now: listed again when they may have changed since the last listing. A
   * stdio server that declares `tools.listChanged` is listed again only after it sent
   * `notifications/tools/list_changed`; any other server (one that promises no such notification,
   * or one reached over HTTP) is listed again every time. A notified server is also listed again as
   * soon as the notification arrives.
   */
  readonly refresh: Effect.Effect<ToolTree, McpServerUnavailable | McpToolNamesCollide>
  /** Emits after a listing that changed the tree (the latest only, to a reader that fell behind). */
  readonly changes: Stream.Stream<void>
}

const DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024
const DEFAULT_CONNECT_TIMEOUT_MS = 30_000
/** Bounds on what a server's listing may cost: descriptions shown, schemas compiled, error text passed on. */
export const MAX_MCP_DESCRIPTION_CHARS = 2000
export const MAX_MCP_SCHEMA_BYTES = 64 * 1024
const MAX_MCP_SCHEMA_DEPTH = 32
export const MAX_MCP_ERROR_TEXT_CHARS = 4000
/** The most tools of one server offered to code mode: the declarations a model reads grow with each. */
export const MAX_MCP_TOOLS = 500

const IDENTIFIER_CHAR = /[^A-Za-z0-9_$]/g

/**
 * A server or tool name as an identifier, predictably: every character outside `A-Z a-z 0-9 _ $`
 * becomes `_` (`get-sum` is `get_sum`), a leading digit gets a `_` before it, and `__proto__`, which
 * no object can hold as its own key, gets a `_` after it.
 */
export const mcpIdentifier = (name: string): string => {
  const replaced = name.replace(IDENTIFIER_CHAR, "_")
  const identifier = replaced === "" ? "_" : /^[0-9]/.test(replaced) ? `_${replaced}` : replaced
  return identifier === "__proto__" ? "__proto___" : identifier
}

const cut = (text: string, limit: number): string => (text.length <= limit ? text : `${text.slice(0, limit)}… (${text.length - limit} more characters)`)

type JsonObject = { readonly [key: string]: unknown }

const depthOf = (value: unknown, limit: number): number => {
  let deepest = 0
  const stack: Array<readonly [unknown, number]> = [[value, 0]]
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as readonly [unknown, number]
    if (depth > deepest) deepest = depth
    if (deepest > limit) return deepest
    if (current !== null && typeof current === "object") for (const child of Object.values(current)) stack.push([child, depth + 1])
  }
  return deepest
}

/** The validator for a server's schemas: JSON Schema 2020-12 when a schema says so, draft-07 (MCP's common dialect) otherwise. */
const makeValidators = () => {
  // `logger: false`: a server's odd schema must not make a library write to the host's stderr.
  const options = { strict: false, allErrors: false, validateFormats: false, logger: false } as const
  const draft07 = new Ajv(options)
  const draft2020 = new Ajv2020(options)
  return (schema: JsonObject): ValidateFunction => {
    const dialect = typeof schema["$schema"] === "string" ? schema["$schema"] : ""
    const { $schema: _dialect, $id: _id, ...rest } = schema
    return (dialect.includes("2020-12") ? draft2020 : draft07).compile(rest)
  }
}

/** Checks a schema a server declared before anything compiles it: its size and nesting are the server's to choose. */
const usableSchema = (schema: unknown, what: string): { readonly schema: JsonObject } | { readonly reason: string } => {
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return { reason: `${what} is not an object` }
  const bytes = JSON.stringify(schema).length
  if (bytes > MAX_MCP_SCHEMA_BYTES) return { reason: `${what} is ${bytes} bytes, over the ${MAX_MCP_SCHEMA_BYTES}-byte limit` }
  if (depthOf(schema, MAX_MCP_SCHEMA_DEPTH) > MAX_MCP_SCHEMA_DEPTH) return { reason: `${what} is nested deeper than ${MAX_MCP_SCHEMA_DEPTH} levels` }
  return { schema: schema as JsonObject }
}

/** How the declarations show a schema: the server's own JSON Schema, without the keys that only name its dialect. */
const declared = (schema: JsonObject, validate: (value: unknown) => true | string, expected: string) => {
  const { $schema: _dialect, $id: _id, ...shown } = schema
  return Schema.Json.check(Schema.makeFilter((value: unknown) => validate(value), { expected, toJsonSchema: () => shown }))
}

/** What a tool without an `outputSchema` answers: its content blocks, as MCP defines them. */
const CONTENT_SCHEMA: JsonObject = {
  type: "array",
  items: {
    anyOf: [
      { type: "object", properties: { type: { const: "text" }, text: { type: "string" } }, required: ["type", "text"] },
      {
        type: "object",
        properties: { type: { enum: ["image", "audio"] }, data: { type: "string", description: "base64" }, mimeType: { type: "string" } },
        required: ["type", "data", "mimeType"]
      },
      { type: "object", properties: { type: { const: "resource_link" }, uri: { type: "string" }, name: { type: "string" } }, required: ["type", "uri", "name"] },
      {
        type: "object",
        properties: { type: { const: "resource" }, resource: { type: "object", properties: { uri: { type: "string" }, text: { type: "string" } }, required: ["uri"] } },
        required: ["type", "resource"]
      }
    ]
  }
}

const encodeResult = Schema.encodeSync(McpSchema.CallToolResult)

const errorText = (result: McpSchema.CallToolResult): string => {
  const texts = result.content.flatMap((block) => (block.type === "text" ? [block.text] : []))
  return cut(texts.length > 0 ? texts.join("\n") : "the tool reported an error and gave no text", MAX_MCP_ERROR_TEXT_CHARS)
}

/** A validator as a check: `true`, or what is wrong, field by field (`input /a must be number`). */
const check = (validate: ValidateFunction, what: string) => (value: unknown): true | string =>
  validate(value) ? true : `${what} ${(validate.errors ?? []).map((issue) => `${issue.instancePath || "(the value)"} ${issue.message ?? "is invalid"}`).join("; ")}`

/** One listed tool as a code-mode tool, or why it is left out. */
const toCodeModeTool = (
  server: string,
  client: McpClient.McpClient,
  tool: McpSchema.Tool,
  compile: (schema: JsonObject) => ValidateFunction
): { readonly tool: Tool } | { readonly reason: string } => {
  const input = usableSchema(tool.inputSchema, "inputSchema")
  if ("reason" in input) return input
  const output = tool.outputSchema === undefined ? undefined : usableSchema(tool.outputSchema, "outputSchema")
  if (output !== undefined && "reason" in output) return output
  let validateInput: ValidateFunction
  let validateOutput: ValidateFunction | undefined
  try {
    validateInput = compile(input.schema)
    validateOutput = output === undefined ? undefined : compile(output.schema)
  } catch (error) {
    return { reason: `its schema does not compile: ${cut(error instanceof Error ? error.message : String(error), 200)}` }
  }
  const required = Array.isArray(input.schema["required"]) ? input.schema["required"] : []
  const inputCodec = declared(input.schema, check(validateInput, "input"), `the input schema of ${tool.name}`)
  const description = cut(tool.description ?? tool.title ?? `The ${tool.name} tool of the ${server} MCP server.`, MAX_MCP_DESCRIPTION_CHARS)
  const run = (given: unknown) =>
    client.callTool({ tool, arguments: (given ?? {}) as Record<string, unknown> }).pipe(
      Effect.mapError((error) => new McpTransportFailure({ server, tool: tool.name, reason: error.message })),
      Effect.flatMap((result) => {
        if (result.isError === true) return Effect.fail(new McpToolError({ server, tool: tool.name, text: errorText(result) }))
        // Content blocks as the server sent them (an image's data is base64 text again), not as decoded.
        if (validateOutput === undefined) return Effect.succeed<unknown>(encodeResult(result).content)
        if (result.structuredContent === undefined) {
          return Effect.fail(new McpToolError({ server, tool: tool.name, text: "the tool declares an outputSchema but returned no structuredContent" }))
        }
        const valid = check(validateOutput, "structuredContent")(result.structuredContent)
        return valid === true ? Effect.succeed<unknown>(result.structuredContent) : Effect.fail(new McpToolError({ server, tool: tool.name, text: cut(valid, MAX_MCP_ERROR_TEXT_CHARS) }))
      })
    )
  return {
    tool: {
      description,
      // Arguments are always an object in MCP: a tool that requires none may be called with none.
      input: required.length === 0 ? Schema.UndefinedOr(inputCodec) : inputCodec,
      output: declared(output?.schema ?? CONTENT_SCHEMA, () => true, `the output of ${tool.name}`),
      run
    } as Tool
  }
}

/** The listed tools as one namespace of a tree, each under its identifier; a collision refuses the whole listing. */
export const mcpToolNamespace = (
  server: string,
  client: McpClient.McpClient,
  tools: ReadonlyArray<McpSchema.Tool>
): Effect.Effect<{ readonly tree: ToolTree; readonly skipped: ReadonlyArray<SkippedMcpTool> }, McpToolNamesCollide> =>
  Effect.suspend(() => {
    const compile = makeValidators()
    const byIdentifier = new Map<string, string>()
    const entries: Array<readonly [string, Tool]> = []
    const skipped: Array<SkippedMcpTool> = []
    for (const [index, tool] of tools.entries()) {
      if (index >= MAX_MCP_TOOLS) {
        skipped.push({ name: tool.name, reason: `the server lists ${tools.length} tools, more than the ${MAX_MCP_TOOLS} offered` })
        continue
      }
      const identifier = mcpIdentifier(tool.name)
      const taken = byIdentifier.get(identifier)
      if (taken !== undefined) return Effect.fail(new McpToolNamesCollide({ server, identifier, names: [taken, tool.name] }))
      byIdentifier.set(identifier, tool.name)
      const converted = toCodeModeTool(server, client, tool, compile)
      if ("reason" in converted) skipped.push({ name: tool.name, reason: converted.reason })
      else entries.push([identifier, converted.tool])
    }
    return Effect.succeed({ tree: Object.fromEntries(entries), skipped })
  })

/** Only what the configuration names reaches a server, and `PATH`, without which its command is not found. */
const serverEnvironment = (config: { readonly env?: Readonly<Record<string, string>> }): Record<string, string> => ({
  ...(process.env["PATH"] === undefined ? {} : { PATH: process.env["PATH"] }),
  ...config.env
})

const connect = (name: string, config: McpServerConfig, options: McpToolTreeOptions, watch: ToolListWatch) => {
  const maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES
  const transport =
    "url" in config
      ? McpClient.http({ url: config.url, protocol: McpProtocol.v2025_11_25, headers: config.headers, maxMessageBytes }).pipe(
          Effect.provide(FetchHttpClient.layer)
        )
      : McpClient.stdio({
          command: ChildProcess.make(config.command, config.args ?? [], {
            env: serverEnvironment(config),
            extendEnv: false,
            ...(config.cwd === undefined ? {} : { cwd: config.cwd })
          }),
          protocol: McpProtocol.v2025_11_25,
          maxMessageBytes
        }).pipe(Effect.map(watch.transport), Effect.provide(watch.spawner))
  return transport.pipe(
    Effect.flatMap((connected) =>
      McpClient.make({ name: "armory", version: "1", timeout: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS }).pipe(
        Effect.provideService(McpClient.Transport, connected)
      )
    ),
    Effect.mapError((error) => new McpServerUnavailable({ server: name, reason: cut(error.message, 1000) }))
  )
}

/**
 * Starts (a command) or reaches (a URL) one MCP server for as long as the scope is open, and lists
 * its tools as a code-mode namespace: `tools.<server>.<tool>(input)`, names made identifiers by
 * {@link mcpIdentifier}. Each input is validated against the tool's JSON Schema before the server
 * sees it; the answer is the tool's `structuredContent` when it declares an `outputSchema` (checked
 * against it), else its content blocks. An `isError` answer fails the call with {@link McpToolError};
 * a transport failure is an internal error. Interrupting a call (the execution's time limit, its
 * AbortSignal) sends the server `notifications/cancelled`. Closing the scope stops a started server
 * (stdin closed, then SIGTERM, then SIGKILL, to its whole process group).
 */
export const connectMcpServer = Effect.fn("connectMcpServer")(function* (
  name: string,
  config: McpServerConfig,
  options: McpToolTreeOptions = {}
): Effect.fn.Return<McpServerConnection, McpServerUnavailable | McpToolNamesCollide, FileSystem.FileSystem | Path.Path | Scope.Scope> {
  const notified = yield* Queue.sliding<void>(1)
  const watch = makeToolListWatch(() => void Queue.offerUnsafe(notified, undefined))
  const client = yield* connect(name, config, options, watch).pipe(Effect.provide(Layer.orDie(NodeChildProcessSpawner.layer)))
  const listTools = Effect.suspend(() => {
    watch.listing()
    return client.listTools({ timeout: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS })
  }).pipe(
    Effect.tapError(() => Effect.sync(watch.failed)),
    Effect.onInterrupt(() => Effect.sync(watch.failed)),
    Effect.mapError((error) => new McpServerUnavailable({ server: name, reason: cut(error.message, 1000) }))
  )
  const build = (tools: ReadonlyArray<McpSchema.Tool>) =>
    Effect.map(mcpToolNamespace(name, client, tools), (namespace) => ({ ...namespace, listing: JSON.stringify(tools) }))
  const current = yield* Ref.make(yield* Effect.flatMap(listTools, build))
  const changes = yield* Effect.acquireRelease(PubSub.sliding<void>(1), PubSub.shutdown)
  const listing = yield* Semaphore.make(1)
  // Listing again is one round trip; compiling every schema again is not, so an unchanged listing keeps its tree.
  const relist = Effect.gen(function* () {
    const tools = yield* listTools
    const last = yield* Ref.get(current)
    if (JSON.stringify(tools) === last.listing) return last.tree
    const next = yield* build(tools)
    yield* Ref.set(current, next)
    yield* PubSub.publish(changes, undefined)
    return next.tree
  })
  // One listing at a time: a refresh that finds one under way waits for it and reads what it found.
  const refresh = listing.withPermits(1)(Effect.suspend(() => (watch.stale() ? relist : Effect.map(Ref.get(current), ({ tree }) => tree))))
  // A server that said its tools changed is listed again at once, so that what a model reads about
  // them (a host's instructions) follows before the next execution asks.
  yield* Queue.take(notified).pipe(
    Effect.andThen(refresh.pipe(Effect.timeout(MCP_REFRESH_TIMEOUT), Effect.ignore)),
    Effect.forever,
    Effect.forkScoped
  )
  return {
    name,
    identifier: mcpIdentifier(name),
    tree: Effect.map(Ref.get(current), ({ tree }) => tree),
    skipped: Effect.map(Ref.get(current), ({ skipped }) => skipped),
    refresh,
    changes: Stream.fromPubSub(changes)
  }
})

/** Two MCP servers, or a server and a namespace the tree already has, that would share a namespace. */
export class McpServerNamesCollide extends Schema.TaggedError<McpServerNamesCollide>()("McpServerNamesCollide", {
  identifier: Schema.String,
  names: Schema.Array(Schema.String)
}) {
  override get message(): string {
    return `${this.names.map((name) => JSON.stringify(name)).join(" and ")} would both be tools.${this.identifier}`
  }
}

/**
 * {@link connectMcpServer} for every server of a configuration, at once. Two servers whose names
 * become one identifier, or a server named like one of the `reserved` namespaces (a host's own),
 * are refused before anything starts.
 */
export const connectMcpServers = Effect.fn("connectMcpServers")(function* (
  servers: Readonly<Record<string, McpServerConfig>>,
  options: McpToolTreeOptions & { readonly reserved?: ReadonlyArray<string> | undefined } = {}
) {
  const taken = new Map<string, string>((options.reserved ?? []).map((namespace) => [namespace, `the namespace ${namespace}`]))
  for (const name of Object.keys(servers)) {
    const identifier = mcpIdentifier(name)
    const holder = taken.get(identifier)
    if (holder !== undefined) return yield* new McpServerNamesCollide({ identifier, names: [holder, name] })
    taken.set(identifier, name)
  }
  return yield* Effect.forEach(Object.entries(servers), ([name, config]) => connectMcpServer(name, config, options), { concurrency: "unbounded" })
})

const asTree = (connections: ReadonlyArray<McpServerConnection>, trees: ReadonlyArray<ToolTree>): ToolTree =>
  Object.fromEntries(connections.map((connection, index) => [connection.identifier, trees[index] as ToolTree]))

/** The connections' tools as last listed, as one tree: each server's namespace under its identifier. */
export const serversToolTree = (connections: ReadonlyArray<McpServerConnection>): Effect.Effect<ToolTree> =>
  Effect.map(
    Effect.forEach(connections, (connection) => connection.tree),
    (trees) => asTree(connections, trees)
  )

/**
 * Every connection's tools as they are now, as one tree: each server whose tools may have changed
 * (see {@link McpServerConnection.refresh}) is listed again, all at once. One that cannot answer
 * within `timeout` keeps its last listing (its calls then fail on their own).
 */
export const refreshServersToolTree = (connections: ReadonlyArray<McpServerConnection>, timeout: Duration.Input): Effect.Effect<ToolTree> =>
  Effect.map(
    Effect.forEach(connections, (connection) => connection.refresh.pipe(Effect.timeout(timeout), Effect.catch(() => connection.tree)), {
      concurrency: "unbounded"
    }),
    (trees) => asTree(connections, trees)
  )

/** How long listing a server's tools again may take before an execution goes ahead with its last listing. */
export const MCP_REFRESH_TIMEOUT = Duration.seconds(2)

/** The servers of a configuration as one tree, for callers without an Effect runtime. */
export interface McpToolTrees {
  /** Each server's tools under its identifier: `tools.<server>.<tool>`. */
  readonly tools: ToolTree
  /** The tools each server left out, by server name. */
  readonly skipped: Readonly<Record<string, ReadonlyArray<SkippedMcpTool>>>
  /**
   * Lists again the servers whose tools may have changed (see {@link McpServerConnection.refresh});
   * one that does not answer within 2 s keeps its last listing. The tree replaces `tools`.
   */
  readonly refresh: () => Promise<ToolTree>
  /** Stops the servers it started and closes its connections. */
  readonly close: () => Promise<void>
}

/**
 * {@link connectMcpServers} with Promises: the servers keep running, reused by every execution
 * given `tools`, until `close()`. Rejects with the typed error when a server cannot be used.
 */
export const mcpToolTree = async (servers: Readonly<Record<string, McpServerConfig>>, options: McpToolTreeOptions = {}): Promise<McpToolTrees> => {
  const scope = Scope.makeUnsafe()
  const provide = <A, E>(effect: Effect.Effect<A, E, FileSystem.FileSystem | Path.Path | Scope.Scope>) =>
    Effect.runPromise(effect.pipe(Scope.provide(scope), Effect.provide(Layer.mergeAll(NodeFileSystem.layer, NodePath.layer))))
  const connections = await provide(connectMcpServers(servers, options)).catch(async (error: unknown) => {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    throw error
  })
  const handle = {
    tools: await provide(serversToolTree(connections)),
    skipped: Object.fromEntries(await provide(Effect.forEach(connections, (connection) => Effect.map(connection.skipped, (skipped) => [connection.name, skipped] as const)))),
    refresh: async () => {
      handle.tools = await provide(refreshServersToolTree(connections, MCP_REFRESH_TIMEOUT))
      return handle.tools
    },
    close: () => Effect.runPromise(Scope.close(scope, Exit.void))
  }
  return handle
}
