// `pnpm bench`: the snapshot-then-act loop, ours against Playwright MCP in the same run. A fixed task
// on a local fixture site — open the page, snapshot it, click a button by ref, type into a field by
// ref, wait for the result text and read it — is done by a model-side script through the official
// MCP client against
//   (a) `armory mcp --provider chrome-cdp`, in two `execute` calls (code mode: open + snapshot, then
//       act + wait + read), and
//   (b) `@playwright/mcp` (from the npm registry), in its own tool calls (navigate, snapshot, click,
//       type, wait_for, snapshot to read the result: its action answers link snapshots as files),
// both connected over CDP to the same headless /usr/bin/chromium. Measured per run, ARMORY_BENCH_RUNS
// times each (default 10), alternating, after one warm-up each: wall time of the task (the servers are
// started once, outside the timing) and the bytes of tool-result text a model must read. Targets: wall
// time <= 1.0x and bytes <= 0.5x of Playwright MCP's. Prints a table and writes
// bench-results/browser-loop.json. Needs a build (`pnpm build`) and Chromium (ARMORY_CHROMIUM, else
// Debian's), launched with the flags every suite uses.
import { spawn } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createServer } from "node:http"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { setTimeout as sleep } from "node:timers/promises"
import { CHROMIUM_FLAGS, chromiumExecutable } from "@armory/config/test-components"
import { connectClient, median, modelReader, reportResults, timed } from "./support/modelClient.mjs"

const RUNS = Number(process.env.ARMORY_BENCH_RUNS ?? 10)
const CHROMIUM = chromiumExecutable()
const bin = join(import.meta.dirname, "..", "dist", "bin.js")
const require = createRequire(import.meta.url)
const playwrightMcp = join(dirname(require.resolve("@playwright/mcp/package.json")), "cli.js")
if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: install it (apt-get install -y chromium) or set ARMORY_CHROMIUM`)

const FORM = `<!doctype html><html><head><meta charset="utf-8"><title>Sign up</title><link rel="icon" href="data:,"></head><body>
<h1>Sign up for the newsletter</h1><p>Fill in your name and accept the terms to continue.</p>
<nav><a href="#a">Home</a> <a href="#b">Pricing</a> <a href="#c">Docs</a> <a href="#d">Blog</a></nav>
<ul>${Array.from({ length: 30 }, (_, index) => `<li>Feature ${index + 1}: something the page says about itself</li>`).join("")}</ul>
<button id="accept" onclick="window.accepted = true; this.textContent = 'Accepted'">Accept terms</button>
<label>Name <input id="name" oninput="if (window.accepted) { clearTimeout(window.t); window.t = setTimeout(() => { document.getElementById('out').textContent = 'Welcome, ' + this.value }, 150) }"></label>
<p id="out"></p></body></html>`

const site = createServer((request, response) => response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(FORM))
await new Promise((resolve) => site.listen(0, "127.0.0.1", resolve))
const url = `http://127.0.0.1:${site.address().port}/form`

const profile = mkdtempSync(join(tmpdir(), "armory-bench-chromium-"))
const chromium = spawn(CHROMIUM, [...CHROMIUM_FLAGS, "--remote-debugging-port=0", `--user-data-dir=${profile}`, "about:blank"], { detached: true, stdio: "ignore" })
const clients = []

/** Stops both servers, the site and Chromium's whole process group, whether the bench finished or failed. */
const stopAll = async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)))
  await new Promise((resolve) => site.close(resolve))
  try {
    process.kill(-chromium.pid, "SIGKILL")
  } catch {
    // Chromium's group already ended.
  }
  await sleep(200)
  rmSync(profile, { recursive: true, force: true })
}

const connect = (command, args, env = {}) => connectClient(clients, command, args, { env: { ...process.env, ...env }, cwd: profile })

const refIn = (text, role, name) => {
  const match = new RegExp(`- ${role} "${name}"[^\\n]*\\[ref=(\\w+)\\]`).exec(text)
  if (match === null) throw new Error(`no ${role} "${name}" in:\n${text}`)
  return match[1]
}

const runs = { ours: [], theirs: [] }
try {
  let port = 0
  for (let waited = 0; port === 0; waited += 50) {
    if (waited > 20_000) throw new Error("Chromium did not write DevToolsActivePort")
    const file = join(profile, "DevToolsActivePort")
    if (existsSync(file)) port = Number.parseInt(readFileSync(file, "utf8").split("\n")[0] ?? "", 10) || 0
    await sleep(50)
  }
  const cdpUrl = `http://127.0.0.1:${port}`

  const ours = await connect(process.execPath, [bin, "mcp", "--provider", "chrome-cdp", "--store", "file", "--goals-root", join(profile, "goals")], {
    ARMORY_CHROME_CDP_URL: cdpUrl
  })
  const theirs = await connect(process.execPath, [playwrightMcp, "--cdp-endpoint", cdpUrl, "--output-dir", join(profile, "playwright-mcp")])

  const taskOurs = async () => {
    const { call, read } = modelReader(ours)
    // A string result comes back as the text itself.
    const tree = await call("execute", { code: `await page.navigate(${JSON.stringify(url)}); return (await page.snapshot()).tree` })
    const accept = refIn(tree, "button", "Accept terms")
    const name = refIn(tree, "textbox", "Name")
    const result = await call("execute", {
      code: `await page.click({ ref: ${JSON.stringify(accept)} })
  await page.type({ ref: ${JSON.stringify(name)}, text: "Ada" })
  await page.waitFor({ text: "Welcome, Ada" })
  return await page.text("#out")`
    })
    if (result !== "Welcome, Ada") throw new Error(`ours read ${JSON.stringify(result)}`)
    return read()
  }

  const taskTheirs = async () => {
    const { call, read } = modelReader(theirs)
    await call("browser_navigate", { url })
    // Its action answers link the page's snapshot as a file; the snapshot tool answers with the tree.
    const opened = await call("browser_snapshot", {})
    await call("browser_click", { element: "Accept terms button", target: refIn(opened, "button", "Accept terms") })
    await call("browser_type", { element: "Name field", target: refIn(opened, "textbox", "Name"), text: "Ada" })
    await call("browser_wait_for", { text: "Welcome, Ada" })
    const after = await call("browser_snapshot", {})
    if (!after.includes("Welcome, Ada")) throw new Error(`Playwright MCP's snapshot does not show the result:\n${after}`)
    return read()
  }

  await timed(taskOurs)
  await timed(taskTheirs)
  for (let run = 0; run < RUNS; run++) {
    runs.ours.push(await timed(taskOurs))
    runs.theirs.push(await timed(taskTheirs))
  }
} finally {
  await stopAll()
}

const round = (value) => Number(value.toFixed(1))
const oursMs = median(runs.ours.map((run) => run.ms))
const theirsMs = median(runs.theirs.map((run) => run.ms))
const oursBytes = median(runs.ours.map((run) => run.bytes))
const theirsBytes = median(runs.theirs.map((run) => run.bytes))
const rows = [
  {
    case: "open, snapshot, click by ref, type by ref, wait, read: wall time (p50)",
    ours: `${round(oursMs)} ms`,
    anchor: `${round(theirsMs)} ms`,
    ratio: Number((oursMs / theirsMs).toFixed(2)),
    target: "<= 1.0x"
  },
  {
    case: "the same task: tool-result bytes a model reads",
    ours: `${oursBytes} B in ${runs.ours[0].calls} calls`,
    anchor: `${theirsBytes} B in ${runs.theirs[0].calls} calls`,
    ratio: Number((oursBytes / theirsBytes).toFixed(2)),
    target: "<= 0.5x"
  }
]
reportResults("browser-loop", { anchor: "@playwright/mcp over CDP, the same Chromium", runs: RUNS, rows, samples: runs })
