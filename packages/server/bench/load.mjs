// `pnpm bench`: 60 s of load at concurrency 32 against a real loopback server, half `GET /skills`
// and half `POST /skills/arm`; prints requests/s, p50/p99 latency and errors, and writes
// bench-results/load.json. Needs a build (`pnpm build`) first.
import { mkdirSync, writeFileSync } from "node:fs"
import { createServer } from "node:http"
import { join } from "node:path"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Effect, Layer, ManagedRuntime } from "effect"
import { HttpServer } from "effect/http"
import { serverLayer } from "../dist/index.js"

const DURATION_MS = Number(process.env.ARMORY_BENCH_SECONDS ?? 60) * 1000
const CONCURRENCY = 32
const TOKEN = "bench-token"
const skills = join(import.meta.dirname, "..", "..", "..", "examples", "skills")

const runtime = ManagedRuntime.make(
  serverLayer({ token: TOKEN, skillSources: [skills], hostTools: () => Effect.succeed({}), defaultGlobals: [] }).pipe(
    Layer.provideMerge(NodeHttpServer.layer(createServer, { host: "127.0.0.1", port: 0 }))
  )
)
const url = await runtime.runPromise(Effect.map(HttpServer.HttpServer, (server) => HttpServer.formatAddress(server.address)))
const headers = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" }
const armBody = JSON.stringify({ prompt: "summarise this pdf", url: "https://docs.google.com/document/d/1" })

const latencies = []
let errors = 0
const deadline = performance.now() + DURATION_MS
const worker = async (id) => {
  for (let index = id; performance.now() < deadline; index += CONCURRENCY) {
    const started = performance.now()
    const response = await fetch(
      index % 2 === 0 ? `${url}/skills` : `${url}/skills/arm`,
      index % 2 === 0 ? { headers } : { method: "POST", headers, body: armBody }
    ).catch(() => undefined)
    if (response === undefined || !response.ok) errors++
    await response?.arrayBuffer()
    latencies.push(performance.now() - started)
  }
}
const started = performance.now()
await Promise.all(Array.from({ length: CONCURRENCY }, (_, id) => worker(id)))
const seconds = (performance.now() - started) / 1000
await runtime.dispose()

latencies.sort((a, b) => a - b)
const percentile = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0
const result = {
  target: "armory serve: GET /skills + POST /skills/arm",
  durationSeconds: Number(seconds.toFixed(1)),
  concurrency: CONCURRENCY,
  requests: latencies.length,
  errors,
  requestsPerSecond: Number((latencies.length / seconds).toFixed(1)),
  p50Ms: Number(percentile(50).toFixed(2)),
  p99Ms: Number(percentile(99).toFixed(2))
}
mkdirSync(join(import.meta.dirname, "..", "bench-results"), { recursive: true })
writeFileSync(join(import.meta.dirname, "..", "bench-results", "load.json"), `${JSON.stringify(result, null, 2)}\n`)
process.stdout.write(`${JSON.stringify(result)}\n`)
process.exitCode = errors === 0 ? 0 : 1
