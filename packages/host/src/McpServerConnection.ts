import * as NodeChildProcessSpawner from "@effect/platform-node/NodeChildProcessSpawner"
import type { ToolTree } from "@armory/codemode"
import { Duration, Effect, type FileSystem, Layer, type Path, PubSub, Queue, Ref, Schema, type Scope, Semaphore, Stream } from "effect"
import { McpClient, McpProtocol, type McpSchema } from "effect/ai"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import { ChildProcess } from "effect/process"
import { cutText as cut } from "./internal/cutText.js"
import { makeToolListWatch, type ToolListWatch } from "./internal/ToolListWatch.js"
import type { McpServerConfig } from "./McpServerConfig.js"
import { mcpIdentifier, type McpToolNamesCollide, mcpToolNamespace, type SkippedMcpTool } from "./McpToolNamespace.js"

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

/** How long listing a server's tools again may take before an execution goes ahead with its last listing. */
export const MCP_REFRESH_TIMEOUT = Duration.seconds(2)

const DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024
const DEFAULT_CONNECT_TIMEOUT_MS = 30_000

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
