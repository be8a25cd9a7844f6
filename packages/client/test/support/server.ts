import { mkdtempSync } from "node:fs"
import { createServer } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Effect, Layer, ManagedRuntime, Schema } from "effect"
import { HttpServer } from "effect/http"
import { type HostChannel, serverLayer, type ServerOptions } from "../../src/index.js"

/** The skill corpus bundled with the repository. */
export const EXAMPLE_SKILLS = join(import.meta.dirname, "..", "..", "..", "..", "examples", "skills")

export const TOKEN = "test-token-0123456789"

/** A real host tool tree: `channel` posts to the execution's channel; `echo.upper` upper-cases. */
export const testTools = (channel: HostChannel) =>
  Effect.succeed({
    channel: {
      send: {
        description: "Posts a message.",
        input: Schema.Struct({ text: Schema.String }),
        output: Schema.Null,
        run: async (message: { readonly text: string }) => {
          await channel.send(message)
          return null
        }
      }
    },
    echo: {
      upper: {
        description: "Upper-cases a text.",
        input: Schema.String,
        output: Schema.String,
        run: async (text: string) => text.toUpperCase()
      }
    }
  })

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

/** Starts the real server on an ephemeral loopback port, with goals in a fresh temp directory. */
export const startServer = async (overrides: Partial<ServerOptions<never>> = {}, host = "127.0.0.1"): Promise<RunningServer> => {
  const goalsRoot = overrides.goalsRoot ?? join(mkdtempSync(join(tmpdir(), "armory-client-goals-")), "goals")
  const layer = serverLayer<never>({
    token: TOKEN,
    skillSources: [EXAMPLE_SKILLS],
    hostTools: testTools,
    defaultGlobals: ["channel", "echo"],
    goalsRoot,
    browserEnv: NO_BROWSER_ENV,
    platform: "linux",
    ...overrides
  }).pipe(Layer.provideMerge(NodeHttpServer.layer(createServer, { host, port: 0 })))
  const runtime = ManagedRuntime.make(layer)
  const address = await runtime.runPromise(Effect.map(HttpServer.HttpServer, (server) => server.address))
  return {
    url: HttpServer.formatAddress(address),
    goalsRoot,
    close: () => runtime.dispose()
  }
}


