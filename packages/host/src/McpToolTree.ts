import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import type { ToolTree } from "@armory/codemode"
import { type Duration, Effect, Exit, type FileSystem, Layer, type Path, Scope } from "effect"
import type { McpServerConfig } from "./McpServerConfig.js"
import { connectMcpServers, MCP_REFRESH_TIMEOUT, type McpServerConnection, type McpToolTreeOptions } from "./McpServerConnection.js"
import type { SkippedMcpTool } from "./McpToolNamespace.js"

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
