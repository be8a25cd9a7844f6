// `pnpm bench`: the point of code mode over MCP servers. A fixed task — read the 50 files of a
// directory through `@modelcontextprotocol/server-filesystem` (from the npm registry) and report how
// many files there are and how often the word "word" appears in them — done by a model-side script
// with the official MCP client, two ways in the same run:
//   (a) direct: the host hands the model the filesystem server's own tools, so every result comes
//       back to the model: `list_directory`, then 50 `read_text_file` calls (in one turn, in
//       parallel, the most a host with parallel tool calls allows), and
//   (b) code mode: `armory mcp --mcp` with the same server configured, and one `execute` call whose
//       code makes those 51 calls in the sandbox and returns only the summary.
// Measured per run, ARMORY_BENCH_RUNS times each (default 10), alternating, after ten warm-ups each,
// with both servers started outside the timing: the bytes of tool-result text the model must read
// (a proxy for tokens), the model round trips, and the wall time. Targets: (b) at most 5 % of (a)'s
// bytes, with at most 1.2x its wall time. A third way, (c), makes (b)'s 51 calls and leaves the
// summary out (it returns how many texts it read): its wall time beside (a)'s says what the calls
// through the sandbox cost, and (b) less (c) what the summary costs inside it. Prints a table and
// writes bench-results/mcp-codemode.json.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { connectClient, median, modelReader, reportResults, timed } from "./support/modelClient.mjs"

const RUNS = Number(process.env.ARMORY_BENCH_RUNS ?? 10)
const WARM_UP_RUNS = 10
const FILE_COUNT = 50
const bin = join(import.meta.dirname, "..", "dist", "bin.js")
const filesystemServer = createRequire(import.meta.url).resolve("@modelcontextprotocol/server-filesystem/dist/index.js")

const root = mkdtempSync(join(tmpdir(), "armory-bench-mcp-"))
const files = join(root, "notes")
mkdirSync(files)
// Notes of a realistic size (a few KiB each), so that what a model would read is what it costs.
for (let index = 0; index < FILE_COUNT; index++) {
  const lines = Array.from({ length: 40 }, (_, line) => `Line ${line} of note ${index}: ${"word ".repeat((index + line) % 7)}and other text the note holds.`)
  writeFileSync(join(files, `note-${String(index).padStart(2, "0")}.md`), `${lines.join("\n")}\n`)
}
writeFileSync(join(root, ".mcp.json"), JSON.stringify({ mcpServers: { files: { command: process.execPath, args: [filesystemServer, files] } } }))

const clients = []
const connect = (command, args) => connectClient(clients, command, args, { cwd: root })

const countWords = (text) => text.split(/\s+/).filter((word) => word === "word").length

const runs = { direct: [], codeMode: [], callsOnly: [] }
let expected
try {
  const direct = await connect(process.execPath, [filesystemServer, files])
  const armory = await connect(process.execPath, [bin, "mcp", "--dir", root, "--store", "file", "--goals-root", join(root, "goals"), "--mcp", join(root, ".mcp.json")])

  const taskDirect = async () => {
    const { turn, read } = modelReader(direct)
    const [listing] = await turn([["list_directory", { path: files }]])
    const names = listing.split("\n").filter((line) => line.startsWith("[FILE]")).map((line) => line.slice(7))
    const texts = await turn(names.map((name) => ["read_text_file", { path: join(files, name) }]))
    const summary = { files: names.length, words: texts.reduce((sum, text) => sum + countWords(text), 0) }
    return { ...read(), summary }
  }

  const CALLS = `const listing = await tools.files.list_directory({ path: ${JSON.stringify(files)} })
  const names = listing.content.split("\\n").filter((line) => line.startsWith("[FILE]")).map((line) => line.slice(7))
  const texts = await Promise.all(names.map((name) => tools.files.read_text_file({ path: ${JSON.stringify(files)} + "/" + name })))`
  const executeOnce = async (code) => {
    const { turn, read } = modelReader(armory)
    const [answer] = await turn([["execute", { code, timeoutMs: 30_000 }]])
    return { ...read(), answer: JSON.parse(answer) }
  }
  const taskCodeMode = async () => {
    const { answer, ...measured } = await executeOnce(`${CALLS}
  const words = texts.reduce((sum, { content }) => sum + content.split(/\\s+/).filter((word) => word === "word").length, 0)
  return { files: names.length, words }`)
    return { ...measured, summary: answer }
  }
  const taskCallsOnly = async () => {
    const { answer, ...measured } = await executeOnce(`${CALLS}
  return texts.length`)
    if (answer !== FILE_COUNT) throw new Error(`the calls-only execution read ${answer} texts`)
    return measured
  }

  // Every way is warmed up alike: the JIT settles on each path before anything is measured.
  for (let warmUp = 0; warmUp < WARM_UP_RUNS; warmUp++) {
    await timed(taskDirect)
    await timed(taskCodeMode)
    await timed(taskCallsOnly)
  }
  for (let run = 0; run < RUNS; run++) {
    runs.direct.push(await timed(taskDirect))
    runs.codeMode.push(await timed(taskCodeMode))
    runs.callsOnly.push(await timed(taskCallsOnly))
  }
  expected = runs.direct[0].summary
  for (const run of [...runs.direct, ...runs.codeMode]) {
    if (JSON.stringify(run.summary) !== JSON.stringify(expected)) throw new Error(`the two ways disagree: ${JSON.stringify(run.summary)} vs ${JSON.stringify(expected)}`)
  }
} finally {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)))
  rmSync(root, { recursive: true, force: true })
}

const round = (value) => Number(value.toFixed(1))
const directMs = median(runs.direct.map((run) => run.ms))
const codeModeMs = median(runs.codeMode.map((run) => run.ms))
const callsOnlyMs = median(runs.callsOnly.map((run) => run.ms))
const directBytes = median(runs.direct.map((run) => run.bytes))
const codeModeBytes = median(runs.codeMode.map((run) => run.bytes))
const rows = [
  {
    case: `${FILE_COUNT} files read, one summary: tool-result bytes a model reads`,
    ours: `${codeModeBytes} B`,
    anchor: `${directBytes} B`,
    ratio: Number((codeModeBytes / directBytes).toFixed(4)),
    target: "<= 0.05x"
  },
  {
    case: "the same task: model round trips (tool calls)",
    ours: `${runs.codeMode[0].turns} (${runs.codeMode[0].calls})`,
    anchor: `${runs.direct[0].turns} (${runs.direct[0].calls})`,
    ratio: Number((runs.codeMode[0].turns / runs.direct[0].turns).toFixed(2)),
    target: "fewer"
  },
  {
    case: "the same task: wall time (p50)",
    ours: `${round(codeModeMs)} ms`,
    anchor: `${round(directMs)} ms`,
    ratio: Number((codeModeMs / directMs).toFixed(2)),
    target: "<= 1.2x"
  },
  {
    case: "(c) the 51 calls through the sandbox, no summary: wall time (p50)",
    ours: `${round(callsOnlyMs)} ms`,
    anchor: `${round(directMs)} ms`,
    ratio: Number((callsOnlyMs / directMs).toFixed(2)),
    target: "(diagnostic)"
  }
]
reportResults("mcp-codemode", { anchor: "direct MCP tool calls to server-filesystem, every result to the model", runs: RUNS, summary: expected, rows, samples: runs })
