// `pnpm bench`: six browser tasks on local pages, each done by a model-side script through the
// official MCP client three ways in the same run, each server over CDP to a headless /usr/bin/chromium
// of its own (same binary and flags: one Playwright client auto-dismisses the dialogs of another's
// tabs in a shared browser):
//   (a) Armory's MCP page tools (`armory mcp --provider chrome-cdp`: page_snapshot, page_click, …),
//   (b) Armory's code mode (`execute`, the model writing the page calls as code), and
//   (c) `@playwright/mcp` (from the npm registry) with its own tools.
// The tasks: log in and fill a profile form; approve invoice 2 when the list re-renders in place
// after the snapshot (every button says "Approve"); keep a draft when its two buttons swap labels
// after the snapshot; delete an item behind a confirm() dialog; read a stock figure on a page too
// large to snapshot whole; search and read the first result. Each script does what a careful model
// does with what its tools answer: it re-snapshots and retries after a refusal it is told of, and
// nothing more. Success is what the site itself recorded (the invoice approved, the draft kept …),
// not what the script believes. A "thinking" pause (1.5 s) between reading a snapshot and acting on
// it lets the traps spring; it is left out of the times. Measured per task and way,
// ARMORY_BENCH_RUNS times (default 3) after one warm-up: success, calls, bytes of tool-result text
// a model reads, wall time. Prints a table and writes bench-results/browser-tasks.json. Needs a
// build (`pnpm build`) and Chromium (ARMORY_CHROMIUM, else Debian's).
import { spawn } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createServer } from "node:http"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { setTimeout as sleep } from "node:timers/promises"
import { CHROMIUM_FLAGS, chromiumExecutable } from "@armory/config/test-components"
import { connectClient, median, reportResults, textOf } from "./support/modelClient.mjs"

const RUNS = Number(process.env.ARMORY_BENCH_RUNS ?? 3)
const THINK_MS = 1500
const SPRING_MS = 1000
const CHROMIUM = chromiumExecutable()
const bin = join(import.meta.dirname, "..", "dist", "bin.js")
const require = createRequire(import.meta.url)
const playwrightMcp = join(dirname(require.resolve("@playwright/mcp/package.json")), "cli.js")
if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: install it (apt-get install -y chromium) or set ARMORY_CHROMIUM`)

const html = (title, body) => `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title><link rel="icon" href="data:,"></head><body>${body}</body></html>`
const record = (what) => `fetch('/event?what=' + encodeURIComponent(${what}))`

const PAGES = {
  "/login": html(
    "Sign in",
    `<h1>Sign in</h1><form onsubmit="event.preventDefault(); if (document.getElementById('email').value === 'ada@example.com' && document.getElementById('password').value === 's3cret') location.href = '/profile'; else document.getElementById('error').textContent = 'Wrong email or password'">` +
      `<label>Email <input id="email" type="email"></label><label>Password <input id="password" type="password"></label><button>Sign in</button></form><p id="error"></p>`
  ),
  "/profile": html(
    "Profile",
    `<h1>Your profile</h1><form onsubmit="event.preventDefault(); const v = { name: document.getElementById('name').value, city: document.getElementById('city').value, country: document.getElementById('country').value }; ${record("'saved:' + JSON.stringify(v)")}; document.getElementById('out').textContent = 'Saved'">` +
      `<label>Full name <input id="name"></label><label>City <input id="city"></label>` +
      `<label>Country <select id="country"><option value="">Choose</option><option value="fr">France</option><option value="uk">United Kingdom</option></select></label><button>Save</button></form><p id="out"></p>`
  ),
  "/invoices": html(
    "Invoices",
    `<h1>Invoices to approve</h1><ul id="list"></ul><script>let order = [1, 2, 3];` +
      `document.getElementById('list').innerHTML = order.map((n) => '<li data-invoice="' + n + '"><span>Invoice ' + n + ' from Vendor ' + n + '</span> <button>Approve</button></li>').join('');` +
      `document.querySelectorAll('#list button').forEach((button) => button.onclick = () => { ${record("'approved:' + button.closest('li').dataset.invoice")}; button.textContent = 'Approved' });` +
      `setTimeout(() => { order.push(order.shift()); document.querySelectorAll('#list li').forEach((item, index) => { item.dataset.invoice = order[index]; item.querySelector('span').textContent = 'Invoice ' + order[index] + ' from Vendor ' + order[index] }) }, ${SPRING_MS})</script>`
  ),
  "/draft": html(
    "Draft",
    `<h1>Remove the draft?</h1><div><button id="a">Keep</button><button id="b">Delete</button></div><p id="out"></p><script>` +
      `const act = (what) => { ${record("what")}; document.getElementById('out').textContent = what === 'kept' ? 'Draft kept' : 'Draft deleted' };` +
      `document.getElementById('a').onclick = () => act('kept'); document.getElementById('b').onclick = () => act('deleted');` +
      `setTimeout(() => { const a = document.getElementById('a'), b = document.getElementById('b'); a.textContent = 'Delete'; b.textContent = 'Keep'; a.onclick = () => act('deleted'); b.onclick = () => act('kept') }, ${SPRING_MS})</script>`
  ),
  "/items": html(
    "Items",
    `<h1>Items</h1><ul><li>Item 7 <button onclick="if (confirm('Delete item 7?')) { ${record("'deleted:7'")}; document.getElementById('out').textContent = 'Deleted item 7' }">Delete item 7</button></li></ul><p id="out"></p>`
  ),
  "/catalog": html(
    "Catalog",
    `<form id="search" onsubmit="event.preventDefault(); const q = document.getElementById('q').value.trim().toLowerCase(); const n = Number(q.replace('widget ', '')); document.getElementById('result').textContent = q.startsWith('widget ') && n >= 0 ? 'Widget ' + n + ': ' + (n % 50) + ' in stock' : 'No such product'">` +
      `<label>Search catalog <input id="q"></label><button>Search</button></form><p id="result"></p><main id="rows"></main>` +
      `<script>const parts = []; for (let i = 0; i < 3000; i++) parts.push('<div class="product"><span>Widget ' + i + '</span><a href="#w' + i + '">details</a></div>'); document.getElementById('rows').innerHTML = parts.join('')</script>`
  ),
  "/search": html(
    "Search",
    `<h1>Search the docs</h1><label>Query <input id="query"></label><button onclick="setTimeout(() => { document.getElementById('results').innerHTML = '<h2>3 results</h2><ol><li>Armory docs: getting started</li><li>Armory docs: code mode</li><li>Armory docs: goals</li></ol>' }, 200)">Search</button><div id="results"></div>`
  )
}

let events = []
const site = createServer((request, response) => {
  const address = new URL(request.url ?? "/", "http://site")
  if (address.pathname === "/event") {
    events.push(address.searchParams.get("what") ?? "")
    response.writeHead(204).end()
    return
  }
  const page = PAGES[address.pathname]
  if (page === undefined) response.writeHead(404).end()
  else response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page)
})
await new Promise((resolve) => site.listen(0, "127.0.0.1", resolve))
const siteUrl = `http://127.0.0.1:${site.address().port}`

const profile = mkdtempSync(join(tmpdir(), "armory-bench-tasks-"))
const browsers = []
const clients = []

/** Starts a Chromium with a temporary profile under the bench's; resolves with its CDP address. */
const launchChromium = async (name) => {
  const directory = join(profile, name)
  const chromium = spawn(CHROMIUM, [...CHROMIUM_FLAGS, "--remote-debugging-port=0", `--user-data-dir=${directory}`, "about:blank"], { detached: true, stdio: "ignore" })
  browsers.push(chromium)
  for (let waited = 0; waited <= 20_000; waited += 50) {
    const file = join(directory, "DevToolsActivePort")
    const port = existsSync(file) ? Number.parseInt(readFileSync(file, "utf8").split("\n")[0] ?? "", 10) || 0 : 0
    if (port !== 0) return `http://127.0.0.1:${port}`
    await sleep(50)
  }
  throw new Error("Chromium did not write DevToolsActivePort")
}

const stopAll = async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)))
  await new Promise((resolve) => site.close(resolve))
  for (const chromium of browsers) {
    try {
      process.kill(-chromium.pid, "SIGKILL")
    } catch {
      // Chromium's group already ended.
    }
  }
  await sleep(200)
  rmSync(profile, { recursive: true, force: true })
}

/** A model's session with one server: every call counted with the bytes of text it answers; a refusal is answered, not thrown. */
const session = (client) => {
  let bytes = 0
  let calls = 0
  let thinking = 0
  const call = async (name, args = {}) => {
    const result = await client.callTool({ name, arguments: args })
    const text = textOf(result)
    bytes += Buffer.byteLength(text)
    calls += 1
    return { text, error: result.isError === true }
  }
  const ok = async (name, args) => {
    const answer = await call(name, args)
    if (answer.error) throw new Error(`${name} failed: ${answer.text.slice(0, 500)}`)
    return answer.text
  }
  const think = async () => {
    thinking += THINK_MS
    await sleep(THINK_MS)
  }
  return { call, ok, think, read: () => ({ bytes, calls, thinking }) }
}

const refIn = (text, role, name) => {
  const match = new RegExp(`- ${role} "${name}"[^\\n]*?\\[ref=(\\w+)\\]`).exec(text)
  if (match === null) throw new Error(`no ${role} "${name}" in:\n${text.slice(0, 3000)}`)
  return match[1]
}

/** The ref of the Approve button in invoice `n`'s list item. */
const approveRef = (tree, n) => {
  const lines = tree.split("\n")
  const start = lines.findIndex((line) => line.includes(`Invoice ${n} from Vendor ${n}`))
  const button = lines.slice(start).find((line) => line.includes('button "Approve"'))
  const ref = button === undefined ? undefined : /\[ref=(\w+)\]/.exec(button)?.[1]
  if (start === -1 || ref === undefined) throw new Error(`no Approve button for invoice ${n} in:\n${tree}`)
  return ref
}

/** Acts until the action is not refused, taking a new look after each refusal, as a model told of it would; three tries at most. */
const retried = async (refused, lookAgain) => {
  for (let tries = 0; tries < 3; tries++) {
    if (!(await refused())) return
    await lookAgain()
  }
  throw new Error("refused three times")
}

/** What `execute` answered: its result, or its error. */
const executed = (text) => JSON.parse(text)

/** Armory's page tools answer a snapshot as JSON; its tree is what a model reads for refs. */
const treeOf = (text) => JSON.parse(text).tree

const TASKS = [
  {
    name: "log in, then fill and save a profile form",
    check: () => events.includes('saved:{"name":"Ada Lovelace","city":"London","country":"uk"}'),
    tools: async ({ ok }) => {
      await ok("page_navigate", { url: `${siteUrl}/login` })
      const login = treeOf(await ok("page_snapshot"))
      await ok("page_fill", { fields: [{ ref: refIn(login, "textbox", "Email"), text: "ada@example.com" }, { ref: refIn(login, "textbox", "Password"), text: "s3cret" }] })
      await ok("page_click", { ref: refIn(login, "button", "Sign in") })
      await ok("page_wait_for", { text: "Your profile" })
      const form = treeOf(await ok("page_snapshot"))
      await ok("page_fill", {
        fields: [
          { ref: refIn(form, "textbox", "Full name"), text: "Ada Lovelace" },
          { ref: refIn(form, "textbox", "City"), text: "London" },
          { ref: refIn(form, "combobox", "Country"), values: "United Kingdom" }
        ]
      })
      await ok("page_click", { ref: refIn(form, "button", "Save") })
      await ok("page_wait_for", { text: "Saved" })
    },
    code: async ({ ok }) => {
      const login = executed(await ok("execute", { code: `await page.navigate(${JSON.stringify(`${siteUrl}/login`)}); return (await page.snapshot()).tree` })).result
      const form = executed(
        await ok("execute", {
          code: `await page.fill({ fields: [{ ref: "${refIn(login, "textbox", "Email")}", text: "ada@example.com" }, { ref: "${refIn(login, "textbox", "Password")}", text: "s3cret" }] })
await page.click({ ref: "${refIn(login, "button", "Sign in")}" })
await page.waitFor({ text: "Your profile" })
return (await page.snapshot()).tree`
        })
      ).result
      await ok("execute", {
        code: `await page.fill({ fields: [{ ref: "${refIn(form, "textbox", "Full name")}", text: "Ada Lovelace" }, { ref: "${refIn(form, "textbox", "City")}", text: "London" }, { ref: "${refIn(form, "combobox", "Country")}", values: "United Kingdom" }] })
await page.click({ ref: "${refIn(form, "button", "Save")}" })
await page.waitFor({ text: "Saved" })
return "saved"`
      })
    },
    playwright: async ({ ok }) => {
      await ok("browser_navigate", { url: `${siteUrl}/login` })
      const login = await ok("browser_snapshot")
      await ok("browser_fill_form", {
        fields: [
          { name: "Email", type: "textbox", target: refIn(login, "textbox", "Email"), value: "ada@example.com" },
          { name: "Password", type: "textbox", target: refIn(login, "textbox", "Password"), value: "s3cret" }
        ]
      })
      await ok("browser_click", { element: "Sign in button", target: refIn(login, "button", "Sign in") })
      await ok("browser_wait_for", { text: "Your profile" })
      const form = await ok("browser_snapshot")
      await ok("browser_fill_form", {
        fields: [
          { name: "Full name", type: "textbox", target: refIn(form, "textbox", "Full name"), value: "Ada Lovelace" },
          { name: "City", type: "textbox", target: refIn(form, "textbox", "City"), value: "London" },
          { name: "Country", type: "combobox", target: refIn(form, "combobox", "Country"), value: "United Kingdom" }
        ]
      })
      await ok("browser_click", { element: "Save button", target: refIn(form, "button", "Save") })
      await ok("browser_wait_for", { text: "Saved" })
    }
  },
  {
    name: "approve invoice 2 while the list re-renders in place (every button says Approve)",
    check: () => events.length === 1 && events[0] === "approved:2",
    tools: async ({ ok, call, think }) => {
      await ok("page_navigate", { url: `${siteUrl}/invoices` })
      let tree = treeOf(await ok("page_snapshot"))
      await think()
      await retried(async () => (await call("page_click", { ref: approveRef(tree, 2) })).error, async () => (tree = treeOf(await ok("page_snapshot"))))
    },
    code: async ({ ok, call, think }) => {
      let tree = executed(await ok("execute", { code: `await page.navigate(${JSON.stringify(`${siteUrl}/invoices`)}); return (await page.snapshot()).tree` })).result
      await think()
      await retried(
        async () => (await call("execute", { code: `return await page.click({ ref: "${approveRef(tree, 2)}" })` })).error,
        async () => (tree = executed(await ok("execute", { code: "return (await page.snapshot()).tree" })).result)
      )
    },
    playwright: async ({ ok, think }) => {
      await ok("browser_navigate", { url: `${siteUrl}/invoices` })
      const tree = await ok("browser_snapshot")
      await think()
      await ok("browser_click", { element: "Approve button of invoice 2", target: approveRef(tree, 2) })
    }
  },
  {
    name: "keep the draft when its two buttons swap labels after the snapshot",
    check: () => events.length === 1 && events[0] === "kept",
    tools: async ({ ok, call, think }) => {
      await ok("page_navigate", { url: `${siteUrl}/draft` })
      let tree = treeOf(await ok("page_snapshot"))
      await think()
      await retried(async () => (await call("page_click", { ref: refIn(tree, "button", "Keep") })).error, async () => (tree = treeOf(await ok("page_snapshot"))))
    },
    code: async ({ ok, call, think }) => {
      let tree = executed(await ok("execute", { code: `await page.navigate(${JSON.stringify(`${siteUrl}/draft`)}); return (await page.snapshot()).tree` })).result
      await think()
      await retried(
        async () => (await call("execute", { code: `return await page.click({ ref: "${refIn(tree, "button", "Keep")}" })` })).error,
        async () => (tree = executed(await ok("execute", { code: "return (await page.snapshot()).tree" })).result)
      )
    },
    playwright: async ({ ok, think }) => {
      await ok("browser_navigate", { url: `${siteUrl}/draft` })
      const tree = await ok("browser_snapshot")
      await think()
      await ok("browser_click", { element: "Keep button", target: refIn(tree, "button", "Keep") })
    }
  },
  {
    name: "delete item 7, confirming the dialog it opens",
    check: () => events.includes("deleted:7"),
    tools: async ({ ok }) => {
      await ok("page_navigate", { url: `${siteUrl}/items` })
      const tree = treeOf(await ok("page_snapshot"))
      await ok("page_click", { ref: refIn(tree, "button", "Delete item 7"), dialog: { accept: true } })
      await ok("page_wait_for", { text: "Deleted item 7" })
    },
    code: async ({ ok }) => {
      const tree = executed(await ok("execute", { code: `await page.navigate(${JSON.stringify(`${siteUrl}/items`)}); return (await page.snapshot()).tree` })).result
      await ok("execute", { code: `await page.click({ ref: "${refIn(tree, "button", "Delete item 7")}", dialog: { accept: true } }); await page.waitFor({ text: "Deleted item 7" }); return "deleted"` })
    },
    playwright: async ({ ok }) => {
      await ok("browser_navigate", { url: `${siteUrl}/items` })
      const tree = await ok("browser_snapshot")
      await ok("browser_click", { element: "Delete item 7 button", target: refIn(tree, "button", "Delete item 7") })
      await ok("browser_handle_dialog", { accept: true })
      await ok("browser_wait_for", { text: "Deleted item 7" })
    }
  },
  {
    name: "read widget 4711's stock on a page too large to snapshot whole",
    check: (answer) => answer?.includes("Widget 4711: 11 in stock") === true,
    tools: async ({ ok, call }) => {
      await ok("page_navigate", { url: `${siteUrl}/catalog` })
      const whole = await call("page_snapshot")
      if (!whole.error) throw new Error("the catalog was expected to be too large to snapshot whole")
      const form = treeOf(await ok("page_snapshot", { within: { selector: "#search" } }))
      await ok("page_type", { ref: refIn(form, "textbox", "Search catalog"), text: "widget 4711" })
      await ok("page_press", { ref: refIn(form, "textbox", "Search catalog"), key: "Enter" })
      await ok("page_wait_for", { text: "in stock" })
      return ok("page_text", { selector: "#result" })
    },
    code: async ({ ok, call }) => {
      const first = await call("execute", { code: `await page.navigate(${JSON.stringify(`${siteUrl}/catalog`)}); return (await page.snapshot()).tree` })
      if (!first.error) throw new Error("the catalog was expected to be too large to snapshot whole")
      const form = executed(await ok("execute", { code: `return (await page.snapshot({ within: { selector: "#search" } })).tree` })).result
      const box = refIn(form, "textbox", "Search catalog")
      return executed(
        await ok("execute", {
          code: `await page.type({ ref: "${box}", text: "widget 4711" }); await page.press({ ref: "${box}", key: "Enter" }); await page.waitFor({ text: "in stock" }); return await page.text({ selector: "#result" })`
        })
      ).result
    },
    playwright: async ({ ok }) => {
      await ok("browser_navigate", { url: `${siteUrl}/catalog` })
      const tree = await ok("browser_snapshot")
      await ok("browser_type", { element: "Search catalog field", target: refIn(tree, "textbox", "Search catalog"), text: "widget 4711", submit: true })
      await ok("browser_wait_for", { text: "in stock" })
      return ok("browser_snapshot", { target: "#result" })
    }
  },
  {
    name: "search the docs and read the first result",
    check: (answer) => answer?.includes("Armory docs: getting started") === true,
    tools: async ({ ok }) => {
      await ok("page_navigate", { url: `${siteUrl}/search` })
      const tree = treeOf(await ok("page_snapshot"))
      await ok("page_type", { ref: refIn(tree, "textbox", "Query"), text: "getting started" })
      await ok("page_click", { ref: refIn(tree, "button", "Search") })
      await ok("page_wait_for", { text: "3 results" })
      return ok("page_text", { selector: "#results li" })
    },
    code: async ({ ok }) => {
      const tree = executed(await ok("execute", { code: `await page.navigate(${JSON.stringify(`${siteUrl}/search`)}); return (await page.snapshot()).tree` })).result
      return executed(
        await ok("execute", {
          code: `await page.type({ ref: "${refIn(tree, "textbox", "Query")}", text: "getting started" }); await page.click({ ref: "${refIn(tree, "button", "Search")}" }); await page.waitFor({ text: "3 results" }); return await page.text({ selector: "#results li" })`
        })
      ).result
    },
    playwright: async ({ ok }) => {
      await ok("browser_navigate", { url: `${siteUrl}/search` })
      const tree = await ok("browser_snapshot")
      await ok("browser_type", { element: "Query field", target: refIn(tree, "textbox", "Query"), text: "getting started" })
      await ok("browser_click", { element: "Search button", target: refIn(tree, "button", "Search") })
      await ok("browser_wait_for", { text: "3 results" })
      return ok("browser_snapshot", { target: "#results li >> nth=0" })
    }
  }
]

const WAYS = ["tools", "code", "playwright"]
const samples = Object.fromEntries(TASKS.map((task) => [task.name, Object.fromEntries(WAYS.map((way) => [way, []]))]))
try {
  const [armoryCdp, playwrightCdp] = [await launchChromium("armory"), await launchChromium("playwright")]
  const connect = (args, env = {}) => connectClient(clients, process.execPath, args, { env: { ...process.env, ...env }, cwd: profile })
  const armory = await connect([bin, "mcp", "--provider", "chrome-cdp", "--store", "file", "--goals-root", join(profile, "goals")], { ARMORY_CHROME_CDP_URL: armoryCdp })
  const playwright = await connect([playwrightMcp, "--cdp-endpoint", playwrightCdp, "--output-dir", join(profile, "playwright-mcp")])
  const clientOf = { tools: armory, code: armory, playwright }

  const attempt = async (task, way) => {
    events = []
    const model = session(clientOf[way])
    const started = process.hrtime.bigint()
    let answer
    let failure
    try {
      answer = await task[way](model)
    } catch (error) {
      failure = error instanceof Error ? error.message.slice(0, 300) : String(error)
    }
    const wall = Number(process.hrtime.bigint() - started) / 1e6
    // What the site records arrives by fetch from the page: give it a moment to land.
    await sleep(100)
    const { bytes, calls, thinking } = model.read()
    return { success: failure === undefined && task.check(answer), bytes, calls, ms: wall - thinking, ...(failure === undefined ? {} : { failure }), events: [...events] }
  }

  for (const task of TASKS) {
    for (const way of WAYS) {
      await attempt(task, way)
      for (let run = 0; run < RUNS; run++) samples[task.name][way].push(await attempt(task, way))
    }
  }
} finally {
  await stopAll()
}

/** A ratio to two significant digits: 0.0019, 0.25, 1.4. */
const ratioOf = (ours, theirs) => Number((ours / theirs).toPrecision(2))

const summary = (runs) => ({
  success: `${runs.filter((run) => run.success).length}/${runs.length}`,
  calls: median(runs.map((run) => run.calls)),
  bytes: median(runs.map((run) => run.bytes)),
  ms: Number(median(runs.map((run) => run.ms)).toFixed(1))
})
const rows = TASKS.flatMap((task) => {
  const [tools, code, playwright] = WAYS.map((way) => summary(samples[task.name][way]))
  return [
    { task: task.name, way: "Armory MCP tools", ...tools, bytesRatio: ratioOf(tools.bytes, playwright.bytes), timeRatio: ratioOf(tools.ms, playwright.ms) },
    { task: "", way: "Armory code mode", ...code, bytesRatio: ratioOf(code.bytes, playwright.bytes), timeRatio: ratioOf(code.ms, playwright.ms) },
    { task: "", way: "Playwright MCP (anchor)", ...playwright, bytesRatio: 1, timeRatio: 1 }
  ]
})
const total = (way, key) => TASKS.reduce((sum, task) => sum + median(samples[task.name][way].map((run) => run[key])), 0)
const succeeded = (way) => TASKS.reduce((sum, task) => sum + samples[task.name][way].filter((run) => run.success).length, 0)
const totals = WAYS.map((way) => ({
  way,
  success: `${succeeded(way)}/${TASKS.length * RUNS}`,
  calls: total(way, "calls"),
  bytes: total(way, "bytes"),
  ms: Number(total(way, "ms").toFixed(1)),
  bytesRatio: ratioOf(total(way, "bytes"), total("playwright", "bytes")),
  timeRatio: ratioOf(total(way, "ms"), total("playwright", "ms"))
}))
reportResults("browser-tasks", { anchor: "@playwright/mcp over CDP, a Chromium like Armory's", runs: RUNS, rows, totals, samples })
console.table(totals)
