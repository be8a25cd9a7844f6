import { PAGE_INSTRUCTIONS, type Page, unavailablePage } from "@armory/browser-runtime"
import { type ExecuteResult, executeEffect, instructions, type InvalidGlobalsError, type InvalidLimitError, Sandboxes, type SandboxPoolOptions, type ToolTree } from "@armory/codemode"
import type { GoalStoreError } from "@armory/goal-store"
import { storeAccess } from "@armory/goal-store/backend"
import type { SkillSource } from "@armory/skill-loader"
import { Context, Effect, type FileSystem, Layer, type Path, PubSub, type Scope, Stream } from "effect"
import { type GoalSessionsShape, makeGoalSessions } from "./GoalSessions.js"
import { type GoalStoreSelection, openGoalBacking } from "./GoalStores.js"
import { type Channel, HOST_GLOBALS, type HostToolTree, hostTools, unavailableChannel } from "./HostTools.js"
import type { McpServers } from "./McpServerConfig.js"
import { connectMcpServers, MCP_REFRESH_TIMEOUT, type McpServerNamesCollide, type McpServerUnavailable, type McpToolTreeOptions } from "./McpServerConnection.js"
import type { McpToolNamesCollide } from "./McpToolNamespace.js"
import { refreshServersToolTree, serversToolTree } from "./McpToolTree.js"
import { makeSkillCatalog, type SkillCatalogOptions, type SkillCatalogShape } from "./SkillCatalog.js"

/** What `page` says on every call when the host was given no browser. */
export const NO_HOST_BROWSER = "this host has no browser connected"

export interface HostOptions {
  /** The skill roots, earlier winning on a name clash. */
  readonly skillSources: ReadonlyArray<SkillSource>
  /** How the catalog follows its roots (`watch: false` for a one-shot command). */
  readonly catalog?: SkillCatalogOptions | undefined
  /** Where goals are kept (default: files under `.armory/goals`). */
  readonly goals?: GoalStoreSelection | undefined
  /**
   * Who operates the operator surfaces (the HTTP `goals` routes, `armory goal`): only their `force`
   * takes effect, recorded with this name. Model-facing surfaces never get it.
   */
  readonly goalOperator?: string | undefined
  /** The page code mode's `page` drives when a run brings none (default: one that reports no browser). */
  readonly page?: Page | undefined
  /** The code-mode sandbox pool every run of this host shares (its size and queue). */
  readonly sandboxes?: SandboxPoolOptions | undefined
  /**
   * MCP servers whose tools code mode calls as `tools.<server>.<tool>()`, by name (a `.mcp.json`'s
   * `mcpServers`): started once, when the host opens, and stopped when it closes.
   */
  readonly mcpServers?: McpServers | undefined
  /** Bounds on those servers' connections. */
  readonly mcp?: McpToolTreeOptions | undefined
}

/** One code-mode run: where `channel` reports, and optionally its page, goal session, globals and time limit. */
export interface HostRun {
  readonly channel: Channel
  readonly page?: Page | undefined
  readonly sessionId?: string | undefined
}

export interface HostShape {
  readonly skills: SkillCatalogShape
  /** The goal sessions model-facing surfaces use: no operator, so `force` is refused. */
  readonly goals: GoalSessionsShape
  /** The goal sessions operator surfaces use: with the host's operator when it has one. */
  readonly operatorGoals: GoalSessionsShape
  /** The tool tree of one code-mode run, reporting to `channel`, on a goal session and a page of its own or the host's. */
  readonly tools: (run: HostRun) => HostToolTree & ToolTree
  /**
   * Emits when the tools changed since they were last read: an MCP server listed tools that differ
   * from its last listing. {@link HostShape.instructions} then says something new.
   */
  readonly toolsChanged: Stream.Stream<void>
  /**
   * What a model reads before writing code for {@link HostShape.execute}: the declarations of the
   * tools (the page's only when `page` is among the globals), the globals (default every host
   * global) and the sandbox rules.
   */
  readonly instructions: (globals?: ReadonlyArray<string> | undefined) => string
  /**
   * Runs code over {@link HostShape.tools} on the host's bounded sandbox pool (a run waits for a
   * free sandbox rather than starting a worker of its own). `globals` defaults to every host global.
   */
  readonly execute: (
    code: string,
    run: HostRun & { readonly globals?: ReadonlyArray<string> | undefined; readonly timeoutMs?: number | undefined }
  ) => Effect.Effect<ExecuteResult, InvalidGlobalsError | InvalidLimitError>
}

/**
 * The packages composed into what a host offers a model, once per host: the watched skill catalog,
 * goal sessions over the chosen store, and code mode over both on one sandbox pool. Everything it
 * opens (watchers, sessions, a database pool, sandbox workers) closes with the scope.
 */
export const makeHost = Effect.fn("makeHost")(function* (
  options: HostOptions
): Effect.fn.Return<
  HostShape,
  GoalStoreError | McpServerUnavailable | McpToolNamesCollide | McpServerNamesCollide,
  FileSystem.FileSystem | Path.Path | Scope.Scope
> {
  const selection = options.goals ?? { store: "file", root: undefined }
  const skills = yield* makeSkillCatalog(options.skillSources, options.catalog)
  const backing = yield* openGoalBacking(selection)
  const goals = yield* makeGoalSessions(backing, {})
  // A blank operator is refused here, once, rather than by every session it would open.
  const operatorAccess = yield* Effect.fromResult(storeAccess({ operator: options.goalOperator }))
  const operatorGoals = operatorAccess.operator === undefined ? goals : yield* makeGoalSessions(backing, operatorAccess)
  const page = options.page ?? unavailablePage(NO_HOST_BROWSER)
  const sandboxes = yield* Layer.build(Sandboxes.layer(options.sandboxes))
  const servers = yield* connectMcpServers(options.mcpServers ?? {}, { ...options.mcp, reserved: HOST_GLOBALS })
  let serverTools = yield* serversToolTree(servers)
  const refreshServers = Effect.map(refreshServersToolTree(servers, MCP_REFRESH_TIMEOUT), (tree) => {
    serverTools = tree
  })
  const toolChanges = yield* Effect.acquireRelease(PubSub.sliding<void>(1), PubSub.shutdown)
  yield* Stream.mergeAll(
    servers.map((connection) => connection.changes),
    { concurrency: "unbounded" }
  ).pipe(
    Stream.runForEach(() =>
      Effect.flatMap(serversToolTree(servers), (tree) => {
        serverTools = tree
        return PubSub.publish(toolChanges, undefined)
      })
    ),
    Effect.forkScoped
  )
  // The host's own namespaces come last, so no server can take their names.
  const tools = (run: HostRun) => ({
    ...serverTools,
    ...hostTools({ channel: run.channel, page: run.page ?? page, goals: (operation) => goals.use(run.sessionId, operation), skills })
  })
  return {
    skills,
    goals,
    operatorGoals,
    tools,
    toolsChanged: Stream.fromPubSub(toolChanges),
    instructions: (globals) => {
      const bound = globals ?? HOST_GLOBALS
      // The page's API is most of the preview: it is described only to code that is given `page`.
      const { page: pageTools, ...withoutPage } = tools({ channel: unavailableChannel })
      if (!bound.includes("page")) return instructions(withoutPage, { globals: bound })
      return `${instructions({ ...withoutPage, page: pageTools }, { globals: bound })}\n\n${PAGE_INSTRUCTIONS}`
    },
    execute: (code, run) =>
      refreshServers.pipe(
        Effect.andThen(
          Effect.suspend(() =>
            executeEffect(code, {
              tools: tools(run),
              globals: run.globals ?? HOST_GLOBALS,
              ...(run.timeoutMs === undefined ? {} : { timeoutMs: run.timeoutMs })
            })
          )
        ),
        Effect.provideContext(sandboxes)
      )
  }
})

/** The host as a service, for the surfaces built on it (the HTTP server, the MCP server, the CLI). */
export class Host extends Context.Service<Host, HostShape>()("@armory/host/Host") {
  static readonly layer = (options: HostOptions) => Layer.effect(Host, makeHost(options))
}
