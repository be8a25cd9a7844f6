import { createServer } from "node:http"
import { join } from "node:path"
import { readSetting } from "@armory/browser-runtime"
import { defaultSkillSources, Host, type HostOptions, projectRootOf, skillSources } from "@armory/host"
import { CODEMODE_INSTRUCTIONS_URI, MCP_HTTP_PATH, MCP_TOOL_NAMES, mcpHttpLayer, mcpStdioLayer, PAGE_TOOL_NAMES, SKILL_URI_TEMPLATE, SNAPSHOT_URI } from "@armory/mcp"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Cause, Console, Context, Effect, Exit, Fiber, Layer, Option } from "effect"
import { Command, Flag } from "effect/cli"
import { HttpServer } from "effect/http"
import { CommandFailed } from "./internal/CommandFailed.js"
import { goalStoreFlags, goalStoreSelection } from "./internal/GoalStores.js"
import { pageGlobal } from "./internal/PageGlobal.js"
import { mcpConfigFlag, mcpServersOf } from "./internal/McpServers.js"
import { checkSkillDirs, dirsFlag } from "./internal/SkillSources.js"
import { ARMORY_VERSION } from "./internal/Version.js"
import { providerFlag } from "./Browser.js"
import { listenFlags, serveSettings } from "./Serve.js"

const failed = (error: { readonly _tag: string; readonly message: string }) =>
  new CommandFailed({ message: `cannot start the MCP server: ${error._tag}: ${error.message}` })

export const mcpCommand = Command.make(
  "mcp",
  {
    http: Flag.Boolean("http").pipe(
      Flag.withDefault(false),
      Flag.withDescription("serve Streamable HTTP on loopback instead of stdio (prints the endpoint URL, and a generated token once)")
    ),
    ...listenFlags("with --http: "),
    dirs: dirsFlag,
    goalsRoot: Flag.String("goals-root").pipe(Flag.optional, Flag.withDescription("with --store file: the goals directory (default: the project's .armory/goals)")),
    ...goalStoreFlags,
    sessionId: Flag.String("session-id").pipe(
      Flag.optional,
      Flag.withDescription("the goal session every call works on (default: over --http the client's Mcp-Session-Id, over stdio the default session)")
    ),
    provider: providerFlag.pipe(
      Flag.withDescription("the browser the page tools and execute's page global drive: auto, browseros, aside or chrome-cdp (else ARMORY_BROWSER_PROVIDER; without either, no page tools)")
    ),
    mcp: mcpConfigFlag.pipe(
      Flag.withDescription("a .mcp.json-style file: its servers are started once and their tools are tools.<server>.<tool>() in execute")
    ),
    json: Flag.Boolean("json").pipe(Flag.withDefault(false), Flag.withDescription("with --http: print the URL (and a generated token) as one JSON line"))
  },
  Effect.fn("mcp")(function* (flags) {
    yield* checkSkillDirs(flags.dirs)
    const mcpServers = yield* mcpServersOf(flags.mcp)
    // A host may start the server in a subfolder of the project: its goals and skills are the project's.
    const project = projectRootOf(process.cwd())
    const selected = yield* goalStoreSelection({
      store: flags.store,
      databaseUrl: flags.databaseUrl,
      databaseSchema: flags.databaseSchema,
      root: Option.getOrUndefined(flags.goalsRoot)
    })
    const goals = selected.store === "file" && selected.root === undefined ? { ...selected, root: join(project, ".armory", "goals") } : selected
    // Every usage error is found before a browser is connected or a port is bound.
    const settings = flags.http
      ? yield* serveSettings({
          host: flags.host,
          port: flags.port,
          tokenFile: Option.getOrUndefined(flags.tokenFile),
          allowRemote: flags.allowRemote,
          dirs: flags.dirs,
          envToken: process.env["ARMORY_TOKEN"]
        })
      : undefined
    const provider = Option.getOrUndefined(flags.provider) ?? readSetting(process.env, "provider")
    // The page is opened once, for as long as the server runs, and closed with it.
    const { page } = yield* pageGlobal(provider)
    const host: HostOptions = { skillSources: flags.dirs.length > 0 ? skillSources(flags.dirs) : defaultSkillSources({ cwd: project }), goals, page, mcpServers }
    const mcp = { sessionId: Option.getOrUndefined(flags.sessionId), version: ARMORY_VERSION, pageTools: provider !== undefined }
    if (settings === undefined) {
      // stdout is the protocol's from here on: nothing else may be written there.
      // The end of stdin stops the server by interrupting the fiber that started it, so it runs on a
      // fiber of its own: that the client is done ends the command with success, not as a SIGINT would.
      const server = yield* Layer.launch(mcpStdioLayer(mcp).pipe(Layer.provide(Host.layer(host)))).pipe(Effect.mapError(failed), Effect.forkChild)
      const exit = yield* Fiber.await(server)
      return yield* Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause) ? Effect.void : exit
    }
    yield* Effect.scoped(
      Effect.gen(function* () {
        const context = yield* Layer.build(
          mcpHttpLayer({ ...mcp, token: settings.token }).pipe(
            Layer.provide(Host.layer(host)),
            Layer.provideMerge(NodeHttpServer.layer(createServer, { host: settings.host, port: settings.port, gracefulShutdownTimeout: "10 seconds" }))
          )
        ).pipe(Effect.mapError(failed))
        const url = `${HttpServer.formatAddress(Context.get(context, HttpServer.HttpServer).address)}${MCP_HTTP_PATH}`
        const token = settings.tokenSource === "generated" ? settings.token : undefined
        yield* Console.log(
          flags.json
            ? JSON.stringify({ url, tokenSource: settings.tokenSource, ...(token === undefined ? {} : { token }) })
            : [`armory mcp listening on ${url}`, ...(token === undefined ? [] : [`token: ${token}`])].join("\n")
        )
        return yield* Effect.never
      })
    )
  }, Effect.scoped)
).pipe(
  Command.withShortDescription("Serve Armory's goal, skill, code-mode and probe tools over MCP"),
  Command.withDescription(
    "Serve the Model Context Protocol on stdio (the default: stdout carries only protocol messages, logs go to stderr)\n" +
      "or, with --http, as a Streamable HTTP endpoint at /mcp on loopback, with the bearer token and Host check of\n" +
      `\`armory serve\`. Tools: ${MCP_TOOL_NAMES.join(", ")}.\n` +
      `With --provider (or ARMORY_BROWSER_PROVIDER) also ${Object.values(PAGE_TOOL_NAMES).join(", ")} on a page of its own.\n` +
      `Resources: ${SNAPSHOT_URI}, ${CODEMODE_INSTRUCTIONS_URI} and ${SKILL_URI_TEMPLATE} (its name completes), with list-changed\n` +
      "notifications when a skill root changes; logging/setLevel chooses which log messages a tool call sends.\n" +
      "The project is the nearest folder at or above the working directory that holds .armory, else .git, else the working\n" +
      "directory (never above the home directory): its .armory/goals and skill roots are the defaults, as for `armory hook`.\n" +
      "Exit codes: 0 stdin closed, 130 stopped by SIGINT/SIGTERM, 1 the server could not start, 2 invalid usage."
  )
)
