import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import type { ToolTree } from "@armory/codemode"
import { Context, type Duration, Effect, Layer, ManagedRuntime } from "effect"
import type { McpServerConfig } from "./McpServerConfig.js"
import { connectMcpServers, MCP_REFRESH_TIMEOUT, type McpServerConnection, type McpToolTreeOptions } from "./McpServerConnection.js"
import type { SkippedMcpTool } from "./McpToolNamespace.js"

/** The servers a Promise-API tree keeps connected, for as long as its runtime lives. */
class McpConnections extends Context.Service<McpConnections, ReadonlyArray<McpServerConnection>>()("@armory/host/McpConnections") {}

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
  const runtime = ManagedRuntime.make(
    Layer.effect(McpConnections, connectMcpServers(servers, options)).pipe(Layer.provide(Layer.mergeAll(NodeFileSystem.layer, NodePath.layer)))
  )
  const connections = await runtime.runPromise(Effect.service(McpConnections)).catch(async (error: unknown) => {
    await runtime.dispose()
    throw error
  })
  const handle = {
    tools: await runtime.runPromise(serversToolTree(connections)),
    skipped: Object.fromEntries(
      await runtime.runPromise(Effect.forEach(connections, (connection) => Effect.map(connection.skipped, (skipped) => [connection.name, skipped] as const)))
    ),
    refresh: async () => {
      handle.tools = await runtime.runPromise(refreshServersToolTree(connections, MCP_REFRESH_TIMEOUT))
      return handle.tools
    },
    close: () => runtime.dispose()
  }
  return handle
}
