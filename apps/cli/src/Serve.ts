import { randomBytes } from "node:crypto"
import { readFile } from "node:fs/promises"
import { createServer } from "node:http"
import { unavailablePage } from "@armory/browser-runtime"
import { Host, isLoopbackHost, skillSources } from "@armory/host"
import { serverLayer } from "@armory/server"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Console, Context, Effect, Layer, Option, type Redacted } from "effect"
import { Command, Flag } from "effect/cli"
import { HttpServer } from "effect/http"
import { CommandFailed, invalidUsage } from "./internal/CommandFailed.js"
import { goalStoreFlags, goalStoreSelection } from "./internal/GoalStores.js"
import { checkSkillDirs, dirsFlag } from "./internal/SkillSources.js"
import { ARMORY_VERSION } from "./internal/Version.js"

/** Until `armory serve` can drive a browser, `page` says so on every call. */
export const NO_SERVE_BROWSER = "armory serve has no browser connected in this version"

/** Where the token came from; a generated one is printed once, the others never. */
export type TokenSource = "generated" | "file" | "env"

export interface ServeSettings {
  readonly host: string
  readonly port: number
  readonly token: string
  readonly tokenSource: TokenSource
  readonly dirs: ReadonlyArray<string>
  /** The goals directory of the `goals` routes and global (default `.armory/goals` under the working directory). */
  readonly goalsRoot?: string | undefined
  /** With `--store pg`: the shared database the `goals` routes and global use instead of files. */
  readonly goalsDatabase?: { readonly databaseUrl: Redacted.Redacted<string>; readonly schema: string | undefined } | undefined
  /** With `--goal-operator`: who operates the `goals` routes, so that their `force` takes effect. Never the goals global. */
  readonly goalOperator?: string | undefined
}

/** The token, from `--token-file`, else `ARMORY_TOKEN`, else a fresh random one. */
const resolveToken = (tokenFile: string | undefined, env: string | undefined) =>
  Effect.gen(function* () {
    if (tokenFile !== undefined) {
      const text = yield* Effect.tryPromise({
        try: () => readFile(tokenFile, "utf8"),
        catch: (error) => new CommandFailed({ message: `cannot read the token file ${tokenFile}: ${String(error)}` })
      })
      const token = text.trim()
      if (token === "") return yield* new CommandFailed({ message: `the token file ${tokenFile} is empty` })
      return { token, tokenSource: "file" as const }
    }
    if (env !== undefined && env.trim() !== "") return { token: env.trim(), tokenSource: "env" as const }
    return { token: randomBytes(32).toString("base64url"), tokenSource: "generated" as const }
  })

/**
 * The flags checked and the token resolved. A non-loopback bind address needs `--allow-remote`
 * and a token the operator chose (a file or `ARMORY_TOKEN`), never a generated one.
 */
export const serveSettings = (flags: {
  readonly host: string
  readonly port: number
  readonly tokenFile: string | undefined
  readonly allowRemote: boolean
  readonly dirs: ReadonlyArray<string>
  readonly goalsRoot?: string | undefined
  readonly goalsDatabase?: ServeSettings["goalsDatabase"]
  readonly goalOperator?: string | undefined
  readonly envToken: string | undefined
}) =>
  Effect.gen(function* () {
    if (!Number.isInteger(flags.port) || flags.port < 0 || flags.port > 65_535) {
      return yield* invalidUsage(`--port must be 0..65535, got ${flags.port}`)
    }
    if (!isLoopbackHost(flags.host) && !flags.allowRemote) {
      return yield* invalidUsage(
        `refusing to bind ${flags.host}: not a loopback address (pass --allow-remote with --token-file or ARMORY_TOKEN)`
      )
    }
    const { token, tokenSource } = yield* resolveToken(flags.tokenFile, flags.envToken)
    if (!isLoopbackHost(flags.host) && tokenSource === "generated") {
      return yield* invalidUsage("--allow-remote needs a token from --token-file or ARMORY_TOKEN")
    }
    const settings: ServeSettings = {
      host: flags.host,
      port: flags.port,
      token,
      tokenSource,
      dirs: flags.dirs,
      goalsRoot: flags.goalsRoot,
      goalsDatabase: flags.goalsDatabase,
      goalOperator: flags.goalOperator
    }
    return settings
  })

/**
 * The server `armory serve` runs: the `@armory/server` routes over a Node HTTP server, on a host
 * whose catalog watches the skill roots, whose code mode binds the same globals as `armory exec`
 * (a page that reports no browser) and whose goals are files under the goals root or, with a goals
 * database, sessions on one pool closed with the server.
 */
export const armoryServer = (settings: ServeSettings) =>
  serverLayer({ token: settings.token, version: ARMORY_VERSION }).pipe(
    Layer.provide(
      Host.layer({
        skillSources: skillSources(settings.dirs),
        goals:
          settings.goalsDatabase === undefined
            ? { store: "file", root: settings.goalsRoot }
            : { store: "pg", databaseUrl: settings.goalsDatabase.databaseUrl, schema: settings.goalsDatabase.schema },
        goalOperator: settings.goalOperator,
        page: unavailablePage(NO_SERVE_BROWSER)
      })
    ),
    Layer.provideMerge(
      NodeHttpServer.layer(createServer, { host: settings.host, port: settings.port, gracefulShutdownTimeout: "10 seconds" })
    )
  )

/** Starts {@link armoryServer} in the current scope and returns the URL it listens on. */
export const startArmoryServer = (settings: ServeSettings) =>
  Layer.build(armoryServer(settings)).pipe(
    Effect.map((context) => HttpServer.formatAddress(Context.get(context, HttpServer.HttpServer).address))
  )

/**
 * Where a loopback server listens and how it is reached: the flags of `armory serve` and of
 * `armory mcp --http`, checked by {@link serveSettings}. `when` prefixes each description
 * (e.g. "with --http: ").
 */
export const listenFlags = (when = "") => ({
  host: Flag.String("host").pipe(Flag.withDefault("127.0.0.1"), Flag.withDescription(`${when}the address to bind (loopback only unless --allow-remote)`)),
  port: Flag.Int("port").pipe(Flag.withDefault(0), Flag.withDescription(`${when}the port to listen on (0: any free port; the URL is printed)`)),
  tokenFile: Flag.String("token-file").pipe(
    Flag.optional,
    Flag.withDescription(`${when}read the bearer token from this file (else ARMORY_TOKEN, else a generated one, printed once)`)
  ),
  allowRemote: Flag.Boolean("allow-remote").pipe(
    Flag.withDefault(false),
    Flag.withDescription(`${when}allow a non-loopback --host (needs --token-file or ARMORY_TOKEN)`)
  )
})

export const serveCommand = Command.make(
  "serve",
  {
    ...listenFlags(),
    dirs: dirsFlag,
    goalsRoot: Flag.String("goals-root").pipe(
      Flag.optional,
      Flag.withDescription("with --store file: the goals directory of the /goals routes and the goals global (default: .armory/goals)")
    ),
    ...goalStoreFlags,
    goalOperator: Flag.String("goal-operator").pipe(
      Flag.optional,
      Flag.withDescription(
        "who operates the /goals routes: only then does a request's force take effect (changing a complete goal, recorded with this name; it never opens the gate)"
      )
    ),
    json: Flag.Boolean("json").pipe(Flag.withDefault(false), Flag.withDescription("print the URL (and a generated token) as one JSON line"))
  },
  Effect.fn("serve")(function* ({ host, port, tokenFile, allowRemote, dirs, goalsRoot, store, databaseUrl, databaseSchema, goalOperator, json }) {
    yield* checkSkillDirs(dirs)
    const goals = yield* goalStoreSelection({ store, databaseUrl, databaseSchema, root: Option.getOrUndefined(goalsRoot) })
    const settings = yield* serveSettings({
      host,
      port,
      tokenFile: Option.getOrUndefined(tokenFile),
      allowRemote,
      dirs,
      goalsRoot: Option.getOrUndefined(goalsRoot),
      goalsDatabase: goals.store === "pg" ? { databaseUrl: goals.databaseUrl, schema: goals.schema } : undefined,
      goalOperator: Option.getOrUndefined(goalOperator),
      envToken: process.env["ARMORY_TOKEN"]
    })
    yield* Effect.scoped(
      Effect.gen(function* () {
        const url = yield* startArmoryServer(settings).pipe(
          Effect.mapError(
            (error) =>
              new CommandFailed({
                message:
                  error._tag === "ServeError"
                    ? `cannot listen on ${host}:${port}: ${error.message}`
                    : `cannot open the goals database: ${error._tag}: ${error.message}`
              })
          )
        )
        const token = settings.tokenSource === "generated" ? settings.token : undefined
        yield* Console.log(
          json
            ? JSON.stringify({ url, tokenSource: settings.tokenSource, ...(token === undefined ? {} : { token }) })
            : [`armory serve listening on ${url} (docs: ${url}/docs)`, ...(token === undefined ? [] : [`token: ${token}`])].join("\n")
        )
        return yield* Effect.never
      })
    )
  })
).pipe(
  Command.withShortDescription("Serve the Armory HTTP API on loopback"),
  Command.withDescription(
    "Serve the Armory HTTP API (skills, goals, capabilities, browser, codemode, health; /openapi.json and /docs).\n" +
      "Binds 127.0.0.1 by default; every route but /health, /docs and /openapi.json needs\n" +
      "`Authorization: Bearer <token>`. The Host header must be exactly the address and port it listens on\n" +
      "(or localhost at that port, for a loopback address), request bodies are capped (413), no CORS headers are sent.\n" +
      "Stops on SIGINT/SIGTERM after in-flight requests finish.\n" +
      "Exit codes: 130 stopped by SIGINT/SIGTERM, 1 the server could not start or the token file is unreadable,\n" +
      "2 invalid usage (a port outside 0..65535, a non-loopback --host without --allow-remote and a chosen token)."
  )
)
