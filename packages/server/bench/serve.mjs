// The server under load, in a process of its own: `@armory/server` over a host on a copy of the
// bundled skills (the benchmark edits one), with goals in a temporary directory. Prints its URL and
// the skills directory as one JSON line.
import { cpSync, mkdtempSync } from "node:fs"
import { createServer } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Host } from "@armory/host"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Effect, Layer, Logger, ManagedRuntime } from "effect"
import { HttpServer } from "effect/http"
import { serverLayer } from "../dist/index.js"

const workDir = mkdtempSync(join(tmpdir(), "armory-bench-"))
const skills = join(workDir, "skills")
cpSync(join(import.meta.dirname, "..", "..", "..", "examples", "skills"), skills, { recursive: true })
const goals = join(workDir, "goals")
const runtime = ManagedRuntime.make(
  serverLayer({ token: process.env.BENCH_TOKEN ?? "bench-token" }).pipe(
    Layer.provide(Host.layer({ skillSources: [skills], goals: { store: "file", root: goals } })),
    Layer.provideMerge(NodeHttpServer.layer(createServer, { host: "127.0.0.1", port: 0 })),
    Layer.provide(NodeServices.layer),
    // The request log is the operator's; a benchmark measures the server, not a terminal.
    Layer.provide(Logger.layer([]))
  )
)
const url = await runtime.runPromise(Effect.map(HttpServer.HttpServer, (server) => HttpServer.formatAddress(server.address)))
process.stdout.write(`${JSON.stringify({ url, skills })}\n`)
process.on("SIGTERM", () => runtime.dispose().then(() => process.exit(0)))
