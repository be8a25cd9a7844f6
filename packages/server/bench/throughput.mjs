// `pnpm bench`: the server's throughput against a bare `node:http` server returning the same bodies,
// in the same run, each in a process of its own, loaded by autocannon from this one (loopback,
// ARMORY_BENCH_SECONDS per route, default 60, 32 connections); then `/health` latency while 100
// code-mode executions run, against `/health` on the same server idle; then how soon a skill edited
// on disk is served, against one load of the same roots. Prints a table and writes
// bench-results/throughput.json. Needs a build (`pnpm build`) first.
import { spawn } from "node:child_process"
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { loadSkills } from "@armory/skill-loader"
import autocannon from "autocannon"

const SECONDS = Number(process.env.ARMORY_BENCH_SECONDS ?? 60)
const CONNECTIONS = 32
const TOKEN = "bench-token"
const EXECUTIONS = 100
const headers = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" }

/** Starts a script in its own process and waits for the URL it prints. */
const start = (script, args = []) =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(import.meta.dirname, script), ...args], {
      env: { ...process.env, BENCH_TOKEN: TOKEN },
      stdio: ["ignore", "pipe", "inherit"]
    })
    let out = ""
    child.stdout.on("data", (chunk) => {
      out += chunk
      const line = out.split("\n")[0]
      if (out.includes("\n")) resolve({ ...JSON.parse(line), stop: () => child.kill("SIGTERM") })
    })
    child.on("exit", (code) => reject(new Error(`${script} exited with ${code} before it listened`)))
  })

const routes = [
  { name: "GET /skills", method: "GET", path: "/skills", target: 0.4 },
  { name: "POST /skills/arm", method: "POST", path: "/skills/arm", body: JSON.stringify({ prompt: "summarise this pdf", url: "https://docs.google.com/document/d/1" }), target: 0.25 },
  { name: "GET /goals/status", method: "GET", path: "/goals/status", target: 0.3 }
]

const load = (url, route) =>
  autocannon({
    url: `${url}${route.path}`,
    method: route.method,
    headers,
    ...(route.body === undefined ? {} : { body: route.body }),
    connections: CONNECTIONS,
    duration: SECONDS
  })

const ours = await start("serve.mjs")
await fetch(`${ours.url}/goals/set`, {
  method: "POST",
  headers,
  body: JSON.stringify({ objective: "ship the benchmark", criteria: [{ scenario: "it runs", qaChannel: "cli", testRef: "bench/throughput.mjs" }] })
})
const bodies = {}
for (const route of routes) {
  const response = await fetch(`${ours.url}${route.path}`, { method: route.method, headers, ...(route.body === undefined ? {} : { body: route.body }) })
  bodies[`${route.method} ${route.path}`] = await response.text()
}
const bodiesFile = join(mkdtempSync(join(tmpdir(), "armory-bench-bodies-")), "bodies.json")
writeFileSync(bodiesFile, JSON.stringify(bodies))
const anchor = await start("bare.mjs", [bodiesFile])

const rows = []
for (const route of routes) {
  const measured = await load(ours.url, route)
  const bare = await load(anchor.url, route)
  const errors = measured.errors + measured.timeouts + measured.non2xx
  const ratio = measured.requests.average / bare.requests.average
  rows.push({
    case: route.name,
    oursRequestsPerSecond: measured.requests.average,
    anchorRequestsPerSecond: bare.requests.average,
    ratio: Number(ratio.toFixed(3)),
    oursP99Ms: measured.latency.p99,
    anchorP99Ms: bare.latency.p99,
    errors,
    target: `>= ${route.target} of the anchor, 0 errors`,
    targetMet: ratio >= route.target && errors === 0
  })
}
anchor.stop()

/** `/health` latencies, one request after another, for `ms`. */
const sampleHealth = async (url, ms) => {
  const samples = []
  const deadline = performance.now() + ms
  while (performance.now() < deadline) {
    const started = performance.now()
    await fetch(`${url}/health`).then((response) => response.arrayBuffer())
    samples.push(performance.now() - started)
  }
  samples.sort((a, b) => a - b)
  return samples[Math.min(samples.length - 1, Math.floor(0.99 * samples.length))]
}

const sampleMs = Math.min(SECONDS, 10) * 1000
const idleP99 = await sampleHealth(ours.url, sampleMs)
// Each execution spins the CPU in its sandbox for about 200 ms, then returns.
const spin = "const end = Date.now() + 200; let n = 0; while (Date.now() < end) n++; return n > 0"
const executions = new AbortController()
let executionErrors = 0
const executor = async () => {
  while (!executions.signal.aborted) {
    const response = await fetch(`${ours.url}/codemode/execute`, { method: "POST", headers, body: JSON.stringify({ code: spin }) })
    const result = await response.json().catch(() => undefined)
    if (!response.ok || result?.status !== "completed") executionErrors++
  }
}
const executors = Array.from({ length: EXECUTIONS }, executor)
const loadedP99 = await sampleHealth(ours.url, sampleMs)
executions.abort()
await Promise.all(executors)

// A description edited on disk, then `GET /skills` asked until it shows.
const skillFile = join(ours.skills, "pdf-tools", "SKILL.md")
const marker = `edited ${Date.now()}`
const edited = performance.now()
writeFileSync(skillFile, readFileSync(skillFile, "utf8").replace(/^description: .*$/m, `description: Merges PDF files (${marker}).`))
let servedAfterMs
while (servedAfterMs === undefined && performance.now() - edited < 10_000) {
  const text = await fetch(`${ours.url}/skills`, { headers }).then((response) => response.text())
  if (text.includes(marker)) servedAfterMs = performance.now() - edited
}
const loadStarted = performance.now()
await loadSkills([ours.skills])
const loadMs = performance.now() - loadStarted
ours.stop()
rows.push({
  case: `GET /health p99 while ${EXECUTIONS} executions run`,
  oursP99Ms: Number(loadedP99.toFixed(2)),
  anchorP99Ms: Number(idleP99.toFixed(2)),
  anchor: "the same server idle",
  ratio: Number((idleP99 / loadedP99).toFixed(3)),
  errors: executionErrors,
  target: "p99 <= 50 ms, 0 errors",
  targetMet: loadedP99 <= 50 && executionErrors === 0
})

rows.push({
  case: "a skill edited on disk is served after",
  oursMs: servedAfterMs === undefined ? null : Number(servedAfterMs.toFixed(1)),
  anchorMs: Number(loadMs.toFixed(1)),
  anchor: "one load of the same roots",
  ratio: servedAfterMs === undefined ? 0 : Number((loadMs / servedAfterMs).toFixed(3)),
  errors: servedAfterMs === undefined ? 1 : 0,
  target: "<= 1000 ms",
  targetMet: servedAfterMs !== undefined && servedAfterMs <= 1000
})

const report = { suite: "server-throughput", anchor: "bare node:http returning the same bodies", node: process.version, date: new Date().toISOString(), seconds: SECONDS, connections: CONNECTIONS, cases: rows }
const outputDir = join(import.meta.dirname, "..", "bench-results")
mkdirSync(outputDir, { recursive: true })
writeFileSync(join(outputDir, "throughput.json"), `${JSON.stringify(report, null, 2)}\n`)
for (const row of rows) {
  process.stdout.write(
    `${row.case.padEnd(44)} ours ${String(row.oursRequestsPerSecond ?? `${row.oursP99Ms ?? row.oursMs} ms`).padStart(10)}  anchor ${String(row.anchorRequestsPerSecond ?? `${row.anchorP99Ms ?? row.anchorMs} ms`).padStart(10)}  ratio ${row.ratio}  errors ${row.errors}  ${row.targetMet ? "met" : "missed"} (${row.target})\n`
  )
}
