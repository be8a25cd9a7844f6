// `pnpm bench`: how long a host waits for `armory mcp` before it can offer the model any tool — the
// answer to `initialize` over stdio — against a bare `node -e 0` in the same run, and how many bytes
// Armory's tool definitions add to every model request with no browser connected. The two starts are
// run alternately, ARMORY_BENCH_RUNS times each (default 20); the targets are a p50 within 3x the
// bare start and at most 12 KiB of tool definitions, beside the reference MCP server's
// (@modelcontextprotocol/server-everything) from the same run. Prints a table and writes
// bench-results/mcp-start.json. Needs a build (`pnpm build`) first.
import { spawn, spawnSync } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"

const RUNS = Number(process.env.ARMORY_BENCH_RUNS ?? 20)
const TOOL_BYTES_TARGET = 12 * 1024
const bin = join(import.meta.dirname, "..", "dist", "bin.js")
const project = mkdtempSync(join(tmpdir(), "armory-mcp-start-bench-"))

const initialize = `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } } })}\n`
const initialized = `${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`
const listTools = `${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" })}\n`

/** Starts a stdio MCP server, sends `initialize` (and, with `list`, `tools/list`), and answers the time to each answer and the tools. */
const session = (command, args, { list }) =>
  new Promise((resolve, reject) => {
    const started = process.hrtime.bigint()
    const child = spawn(command, args, { cwd: project, stdio: ["pipe", "pipe", "ignore"] })
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`${command} ${args.join(" ")} did not answer within 60 s`))
    }, 60_000)
    let buffered = ""
    let initializeMs
    child.stdout.setEncoding("utf8")
    child.stdout.on("data", (chunk) => {
      buffered += chunk
      const lines = buffered.split("\n")
      buffered = lines.pop() ?? ""
      for (const line of lines) {
        if (line.trim() === "") continue
        const message = JSON.parse(line)
        if (message.id === 1 && initializeMs === undefined) {
          initializeMs = Number(process.hrtime.bigint() - started) / 1e6
          if (!list) {
            clearTimeout(timer)
            child.kill()
            resolve({ initializeMs })
            return
          }
          child.stdin.write(initialized + listTools)
        }
        if (message.id === 2) {
          clearTimeout(timer)
          child.kill()
          resolve({ initializeMs, tools: message.result.tools })
        }
      }
    })
    child.stdin.write(initialize)
  })

const bare = () => {
  const started = process.hrtime.bigint()
  spawnSync(process.execPath, ["-e", "0"])
  return Number(process.hrtime.bigint() - started) / 1e6
}

const ours = []
const anchor = []
await session(process.execPath, [bin, "mcp", "--dir", project], { list: false })
for (let run = 0; run < RUNS; run++) {
  ours.push((await session(process.execPath, [bin, "mcp", "--dir", project], { list: false })).initializeMs)
  anchor.push(bare())
}
const { tools } = await session(process.execPath, [bin, "mcp", "--dir", project], { list: true })
const everything = join(dirname(createRequire(join(import.meta.dirname, "..", "..", "..", "packages", "host", "package.json")).resolve("@modelcontextprotocol/server-everything/package.json")), "dist", "index.js")
const reference = await session(process.execPath, [everything, "stdio"], { list: true })
rmSync(project, { recursive: true, force: true })

const percentile = (values, p) => values.toSorted((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]
const round = (value) => Number(value.toFixed(1))
const bytesOf = (list) => list.reduce((sum, tool) => sum + Buffer.byteLength(JSON.stringify(tool)), 0)
const oursP50 = percentile(ours, 50)
const anchorP50 = percentile(anchor, 50)
const toolBytes = bytesOf(tools)
const referenceBytes = bytesOf(reference.tools)
const rows = [
  {
    case: "armory mcp: initialize answered (stdio)",
    oursP50Ms: round(oursP50),
    oursP95Ms: round(percentile(ours, 95)),
    anchorP50Ms: round(anchorP50),
    anchor: "node -e 0",
    ratio: Number((oursP50 / anchorP50).toFixed(2)),
    target: "p50 <= 3x node -e 0",
    targetMet: oursP50 <= 3 * anchorP50
  },
  {
    case: `tool definitions, no browser (${tools.length} tools)`,
    oursBytes: toolBytes,
    anchorBytes: referenceBytes,
    anchor: `server-everything (${reference.tools.length} tools)`,
    ratio: Number((toolBytes / referenceBytes).toFixed(2)),
    perTool: Object.fromEntries(tools.map((tool) => [tool.name, Buffer.byteLength(JSON.stringify(tool))])),
    target: `<= ${TOOL_BYTES_TARGET} bytes`,
    targetMet: toolBytes <= TOOL_BYTES_TARGET
  }
]
const report = { suite: "mcp-start", node: process.version, date: new Date().toISOString(), runs: RUNS, cases: rows }
const outputDir = join(import.meta.dirname, "..", "bench-results")
mkdirSync(outputDir, { recursive: true })
writeFileSync(join(outputDir, "mcp-start.json"), `${JSON.stringify(report, null, 2)}\n`)
process.stdout.write(
  `${rows[0].case.padEnd(48)} ours ${`${rows[0].oursP50Ms} ms`.padStart(9)}  anchor ${`${rows[0].anchorP50Ms} ms`.padStart(9)} (${rows[0].anchor})  ratio ${rows[0].ratio}  ${rows[0].targetMet ? "met" : "missed"} (${rows[0].target})\n` +
    `${rows[1].case.padEnd(48)} ours ${`${rows[1].oursBytes} B`.padStart(9)}  anchor ${`${rows[1].anchorBytes} B`.padStart(9)} (${rows[1].anchor})  ratio ${rows[1].ratio}  ${rows[1].targetMet ? "met" : "missed"} (${rows[1].target})\n`
)
