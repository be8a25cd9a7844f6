import { mkdtempSync } from "node:fs"
import { createServer } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Host, type HostOptions } from "@armory/host"
import { Effect, Layer, Logger, ManagedRuntime } from "effect"
import { HttpServer } from "effect/http"
import { serverLayer, type ServerOptions } from "../../src/index.js"

/** The skill corpus bundled with the repository. */
export const EXAMPLE_SKILLS = join(import.meta.dirname, "..", "..", "..", "..", "examples", "skills")

export const TOKEN = "test-token-0123456789"

export interface RunningServer {
  readonly url: string
  /** Where the server keeps goals. */
  readonly goalsRoot: string
  readonly close: () => Promise<void>
}

/**
 * No browser at any provider's address: nothing listens on port 1 and the Aside command does not
 * exist, so every provider probes as unavailable, quickly and without touching a real browser.
 */
export const NO_BROWSER_ENV = {
  ARMORY_BROWSEROS_CDP_URL: "http://127.0.0.1:1",
  ARMORY_CHROME_CDP_URL: "http://127.0.0.1:1",
  ARMORY_ASIDE_COMMAND: "/nonexistent/armory-test-aside"
}

export interface ServerOverrides extends Partial<ServerOptions>, Partial<Omit<HostOptions, "goals">> {
  /** Where the file store keeps goals (default: a fresh temp directory). */
  readonly goalsRoot?: string | undefined
  /** Receives every line the server logs; without it, the server's logs go nowhere. */
  readonly logs?: Array<LogLine> | undefined
}

export interface LogLine {
  readonly level: string
  readonly message: ReadonlyArray<unknown>
}

/**
 * Starts the real server on an ephemeral loopback port over a real host: the bundled skills, goals
 * in a fresh temp directory, no browser.
 */
export const startServer = async (overrides: ServerOverrides = {}, host = "127.0.0.1"): Promise<RunningServer> => {
  const goalsRoot = overrides.goalsRoot ?? join(mkdtempSync(join(tmpdir(), "armory-server-goals-")), "goals")
  const layer = serverLayer({ token: TOKEN, browserEnv: NO_BROWSER_ENV, platform: "linux", ...overrides }).pipe(
    Layer.provide(
      Host.layer({
        skillSources: overrides.skillSources ?? [EXAMPLE_SKILLS],
        goals: { store: "file", root: goalsRoot },
        goalOperator: overrides.goalOperator,
        ...(overrides.catalog === undefined ? {} : { catalog: overrides.catalog })
      })
    ),
    Layer.provideMerge(NodeHttpServer.layer(createServer, { host, port: 0 })),
    // A test that asserts on the logs receives them; the others keep the test log free of one line per request.
    Layer.provide(
      Logger.layer(
        overrides.logs === undefined
          ? []
          : [
              Logger.make(({ logLevel, message }) => {
                overrides.logs?.push({ level: logLevel, message: Array.isArray(message) ? message : [message] })
              })
            ]
      )
    )
  )
  const runtime = ManagedRuntime.make(layer)
  const address = await runtime.runPromise(Effect.map(HttpServer.HttpServer, (server) => server.address))
  return {
    url: HttpServer.formatAddress(address),
    goalsRoot,
    close: () => runtime.dispose()
  }
}
