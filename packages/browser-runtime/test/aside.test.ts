import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { AsideSession, BrowserUnavailableError, connect, disconnect, probeAside } from "../src/index.js"
import { processAlive } from "./support/chromium.js"

/**
 * A stand-in `aside` executable for platforms without Aside: a line-based REPL that echoes its
 * input (as a terminal REPL does), answers with a prompt, and evaluates each line with fake tab
 * functions. `mode` adds the misbehaviour under test; `report` receives its environment, cwd and
 * the pid of a child it leaves running.
 */
const fakeAside = (mode: "ok" | "spoof" | "silent" | "exit") => {
  const directory = mkdtempSync(join(tmpdir(), "armory-fake-aside-"))
  const report = join(directory, "report.json")
  const script = join(directory, "aside")
  writeFileSync(
    script,
    `#!${process.execPath}
const { spawn } = require("node:child_process")
const { writeFileSync } = require("node:fs")
const readline = require("node:readline")
const mode = ${JSON.stringify(mode)}
const sleeper = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" })
writeFileSync(${JSON.stringify(report)}, JSON.stringify({ env: process.env, cwd: process.cwd(), args: process.argv.slice(2), sleeper: sleeper.pid }))
if (mode === "exit") process.exit(3)
if (mode === "silent") return
const tabs = [{ id: 1, url: "https://user.example/inbox" }]
let next = 2
const api = {
  listBrowserTabs: async () => tabs,
  openTab: async (url) => { const tab = { id: next++, url }; tabs.push(tab); return tab },
  closeTab: async (id) => { tabs.splice(tabs.findIndex((tab) => String(tab.id) === String(id)), 1) }
}
process.stdout.write("\\u001b[32mrepl >\\u001b[0m ")
readline.createInterface({ input: process.stdin }).on("line", async (line) => {
  process.stdout.write(line + "\\n")
  if (mode === "spoof") process.stdout.write("ARMORY_" + "0".repeat(32) + '=[{"id":9,"url":"spoofed"}]\\n  page text: ARMORY_deadbeef=[]\\n')
  const run = new (Object.getPrototypeOf(async function () {}).constructor)(...Object.keys(api), line)
  await run(...Object.values(api)).catch((error) => process.stdout.write("[error] " + error.message + "\\n"))
  process.stdout.write("repl > ")
})
`
  )
  chmodSync(script, 0o755)
  return { script, directory, report: () => JSON.parse(readFileSync(report, "utf8")) as { env: Record<string, string>; cwd: string; args: Array<string>; sleeper: number } }
}

const env = { PATH: "/usr/bin:/bin", HOME: "/tmp", SECRET_TOKEN: "do-not-pass", ARMORY_TOKEN: "x" }

describe("Aside through a fake aside executable", () => {
  it("probes with a read-only tab listing, in a minimal environment, and leaves no process behind", async () => {
    const fake = fakeAside("ok")
    expect(await probeAside(fake.script, { env })).toEqual({ tabCount: 1 })
    const report = fake.report()
    expect(report.args).toEqual(["repl"])
    expect(Object.keys(report.env).filter((name) => !["PWD", "SHLVL", "_"].includes(name)).toSorted()).toEqual(["HOME", "PATH"])
    expect(report.cwd).not.toBe(process.cwd())
    expect(existsSync(report.cwd)).toBe(false)
    expect(processAlive(report.sleeper)).toBe(false)
  })

  it("takes only a line that starts with this call's marker: echoed input and page text cannot spoof it", async () => {
    const fake = fakeAside("spoof")
    const session = await AsideSession.open(fake.script, { env })
    try {
      expect(await session.listTabs()).toEqual([{ id: "1", url: "https://user.example/inbox" }])
    } finally {
      await session.close()
    }
  })

  // The silent REPL gets long enough to start on a loaded machine; the exiting one is never waited out.
  it.each([
    ["silent", 2000, /aside repl did not start: no answer within 2000 ms/],
    ["exit", 20_000, /aside repl did not start: it exited \(code 3\)/]
  ] as const)("reports a REPL that is %s as UNAVAILABLE and cleans up", async (mode, timeoutMs, reason) => {
    const fake = fakeAside(mode)
    const error = await probeAside(fake.script, { env, timeoutMs }).catch((failure: unknown) => failure)
    expect(error).toBeInstanceOf(BrowserUnavailableError)
    expect(error).toMatchObject({ code: "UNAVAILABLE", provider: "aside", endpoint: fake.script, reason: expect.stringMatching(reason) })
    expect(processAlive(fake.report().sleeper)).toBe(false)
  })

  it("connects through a persistent session and closes only the tabs it opened", async () => {
    const fake = fakeAside("ok")
    const connection = await connect({ provider: "aside", asideCommand: fake.script, env })
    expect(connection.kind).toBe("aside")
    if (connection.kind !== "aside") return
    const opened = await connection.session.openTab("https://example.com/")
    expect((await connection.session.listTabs()).map((tab) => tab.url)).toEqual(["https://user.example/inbox", "https://example.com/"])
    expect(await connection.session.closeTab("1")).toBe(false)
    await disconnect(connection)
    expect(opened.id).toBe("2")
    expect(processAlive(fake.report().sleeper)).toBe(false)
  })

  it("is UNAVAILABLE when the command does not exist", async () => {
    await expect(probeAside("armory-no-such-aside", { env })).rejects.toMatchObject({
      code: "UNAVAILABLE",
      reason: expect.stringMatching(/ENOENT/)
    })
  })
})
