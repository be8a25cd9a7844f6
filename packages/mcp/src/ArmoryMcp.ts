import { createServer } from "node:http"
import { Host, type HostOptions, hostAuthorities } from "@armory/host"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { ByteSize, Cause, Context, Effect, Exit, Layer, Logger, ManagedRuntime, Option, Stream } from "effect"
import { McpProtocol, type McpSchema, McpServer } from "effect/ai"
import { HttpIncomingMessage, HttpRouter, HttpServer, HttpServerRequest } from "effect/http"
import packageJson from "../package.json" with { type: "json" }
import { MCP_PROTOCOL_VERSIONS, MCP_SERVER_NAME, type McpProtocolVersion } from "./Initialize.js"
import { boundedStdin } from "./internal/BoundedStdin.js"
import { httpAccess } from "./internal/HttpAccess.js"
import { HttpSessions } from "./internal/HttpSessions.js"
import { ListChanges } from "./internal/ListChanges.js"
import { registerResources } from "./McpResources.js"
import { type McpToolEntry, mcpTools, mcpToolsDescribingHostTools } from "./McpTools.js"

/** effect/ai's adapter for each revision the server speaks, in the order `MCP_PROTOCOL_VERSIONS` gives. */
const ADAPTERS = {
  "2025-11-25": McpProtocol.v2025_11_25,
  "2025-06-18": McpProtocol.v2025_06_18,
  "2025-03-26": McpProtocol.v2025_03_26,
  "2024-11-05": McpProtocol.v2024_11_05
} as const satisfies Record<McpProtocolVersion, unknown>

const [NEWEST, ...OLDER] = MCP_PROTOCOL_VERSIONS
const PROTOCOLS = [ADAPTERS[NEWEST], ...OLDER.map((version) => ADAPTERS[version])] as const

export interface McpOptions {
  /**
   * The goal session every call works on. Without it, a Streamable HTTP call works on the session
   * its `Mcp-Session-Id` names, and a stdio call on the default session.
   */
  readonly sessionId?: string | undefined
  /** The version the server reports (default this package's). */
  readonly version?: string | undefined
  /**
   * Offer the page tools (`page_url`, `page_text`, …) over the host's page: only for a host that was
   * given a browser, since without one every call would only say so.
   */
  readonly pageTools?: boolean | undefined
  /** The cap on one message, a request body over HTTP or a line on stdio (default 4 MiB). */
  readonly maxMessageBytes?: number | undefined
}

/** The default cap on a message (a request body over HTTP, a line on stdio): far above any real MCP message, far below memory trouble. */
export const DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024

/** The goal session of the call being answered. */
const sessionOf = (options: McpOptions): Effect.Effect<string | undefined> =>
  options.sessionId !== undefined
    ? Effect.succeed(options.sessionId)
    : Effect.map(Effect.serviceOption(HttpServerRequest.HttpServerRequest), (request) =>
        Option.getOrUndefined(Option.flatMapNullishOr(request, (found) => found.headers["mcp-session-id"]))
      )

/**
 * What follows a tool call: the client that made it is sent, at or above the level it set
 * (`logging/setLevel`), the lines the call logged, each at its level, and a failed call's error at
 * `error`, under the tool's name; after a successful call, the subscribers of each resource it may
 * have changed are told.
 */
const afterCall = (server: McpServer.McpServer["Service"], entry: McpToolEntry, result: McpSchema.CallToolResult) =>
  Effect.gen(function* () {
    const logger = entry.tool.name
    for (const line of entry.loggedLines?.(result) ?? []) yield* server.notifications["notifications/message"]({ level: line.level, logger, data: line.text })
    if (result.isError === true) yield* server.notifications["notifications/message"]({ level: "error", logger, data: result.structuredContent ?? null })
    else for (const uri of entry.updates) yield* server.notifications["notifications/resources/updated"]({ uri })
  })

/** The tools and resources, registered on the `McpServer` from the `Host`. */
const registrations = (options: McpOptions) =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      const server = yield* McpServer.McpServer
      const host = yield* Host
      const listChanges = yield* ListChanges
      const session = sessionOf(options)
      // Registering a tool again under its name replaces it and announces the change on stdio.
      const register = (entry: McpToolEntry) =>
        server.addTool({
          tool: entry.tool,
          annotations: Context.empty(),
          handle: (payload: Record<string, unknown> | undefined) =>
            Effect.flatMap(session, (sessionId) => entry.call(host, { sessionId }, payload)).pipe(
              Effect.tap((result) => afterCall(server, entry, result))
            )
        })
      for (const entry of mcpTools(host, { pageTools: options.pageTools })) yield* register(entry)
      yield* host.toolsChanged.pipe(
        Stream.runForEach(() =>
          Effect.andThen(Effect.forEach(mcpToolsDescribingHostTools(host, options), register), listChanges.publish("notifications/tools/list_changed"))
        ),
        Effect.forkScoped
      )
      yield* registerResources(host, session, { pageTools: options.pageTools === true })
    })
  )

const serverInfo = (options: McpOptions) => ({
  name: MCP_SERVER_NAME,
  version: options.version ?? packageJson.version,
  protocols: PROTOCOLS,
  registrations: registrations(options)
})

/**
 * The MCP server over standard input and output (newline-delimited JSON-RPC), on the `Host` it is
 * given. A line longer than `maxMessageBytes` ends the input, and so the server.
 */
export const mcpStdioLayer = (options: McpOptions = {}) =>
  McpServer.layerStdio(serverInfo(options)).pipe(
    Layer.provide(ListChanges.layer),
    Layer.provide(boundedStdin(options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES))
  )

export interface McpHttpOptions extends McpOptions {
  /** The bearer token every request must carry. */
  readonly token: string
  /** Names besides the bound address (and `localhost` on loopback) the `Host` header may give. */
  readonly extraHosts?: ReadonlyArray<string> | undefined
}

/** Where the Streamable HTTP endpoint is served. */
export const MCP_HTTP_PATH = "/mcp"

/**
 * The MCP server as a Streamable HTTP endpoint at `/mcp` on an `HttpServer`, on the `Host` it is
 * given: every request needs the bearer token and a `Host` header naming the server, a request
 * with an `Origin` other than the server's own (a page elsewhere) is refused with 403, and bodies
 * are capped.
 */
export const mcpHttpLayer = (options: McpHttpOptions) => {
  const maxBodyBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES
  // A page the server itself could have served is the only browser origin it answers: it serves no pages, so that is a client naming the server.
  const endpoint = Layer.unwrap(
    Effect.map(HttpServer.HttpServer, (server) =>
      McpServer.layerHttp({
        ...serverInfo(options),
        path: MCP_HTTP_PATH,
        allowSessionTermination: true,
        allowedOrigins: [...hostAuthorities(server.address, options.extraHosts ?? [])].map((authority) => `http://${authority}`)
      })
    )
  )
  return HttpRouter.serve(
    Layer.mergeAll(
      endpoint,
      httpAccess({ token: options.token, extraHosts: options.extraHosts ?? [], path: MCP_HTTP_PATH, maxBodyBytes })
    ).pipe(Layer.provide([ListChanges.layer, HttpSessions.layer])),
    { disableLogger: true, disableListenLog: true }
  ).pipe(Layer.provide(Layer.succeed(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(maxBodyBytes))))
}

/** Where a Promise-API server sends its log lines; without one nothing is written anywhere. */
export interface McpLogger {
  readonly error: (message: string) => void
}

const loggerLayer = (logger: McpLogger | undefined) =>
  Logger.layer(
    logger === undefined
      ? []
      : [Logger.make(({ message }) => logger.error((Array.isArray(message) ? message : [message]).map(String).join(" ")))]
  )

/**
 * Serves MCP on this process's stdin and stdout until stdin ends or `signal` aborts (stdout carries
 * nothing but protocol messages), then closes the host. For callers without an Effect runtime; it
 * rejects only when the server cannot start.
 */
export const serveMcpStdio = async (
  options: HostOptions & McpOptions & { readonly logger?: McpLogger | undefined; readonly signal?: AbortSignal | undefined }
): Promise<void> => {
  const exit = await Effect.runPromiseExit(
    Layer.launch(mcpStdioLayer(options).pipe(Layer.provide(Host.layer(options)))).pipe(Effect.provide([NodeServices.layer, loggerLayer(options.logger)])),
    options.signal === undefined ? undefined : { signal: options.signal }
  )
  // The end of stdin ends the server by interruption: that is how it stops, not a failure.
  if (Exit.isFailure(exit) && !Cause.hasInterruptsOnly(exit.cause)) throw new Error(`the MCP server stopped: ${Cause.pretty(exit.cause)}`)
}

export interface McpHttpServer {
  /** The endpoint's URL, e.g. `http://127.0.0.1:41234/mcp`. */
  readonly url: string
  /** Stops the server and closes the host (its watchers, goal sessions and sandboxes). */
  readonly close: () => Promise<void>
}

/** Listens for Streamable HTTP on `host`:`port` (default 127.0.0.1 and any free port). For callers without an Effect runtime. */
export const listenMcpHttp = async (
  options: HostOptions & McpHttpOptions & { readonly host?: string | undefined; readonly port?: number | undefined; readonly logger?: McpLogger | undefined }
): Promise<McpHttpServer> => {
  const runtime = ManagedRuntime.make(
    mcpHttpLayer(options).pipe(
      Layer.provide(Host.layer(options)),
      Layer.provideMerge(NodeHttpServer.layer(createServer, { host: options.host ?? "127.0.0.1", port: options.port ?? 0 })),
      Layer.provide([NodeServices.layer, loggerLayer(options.logger)])
    )
  )
  const exit = await Effect.runPromiseExit(runtime.contextEffect)
  if (Exit.isFailure(exit)) {
    await runtime.dispose()
    throw new Error(`cannot start the MCP server: ${Cause.pretty(exit.cause)}`)
  }
  const address = Context.get(exit.value, HttpServer.HttpServer).address
  return {
    url: `${HttpServer.formatAddress(address)}${MCP_HTTP_PATH}`,
    close: () => runtime.dispose()
  }
}
