import { type ChildProcessByStdio, spawn } from "node:child_process"
import { once } from "node:events"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Readable } from "node:stream"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ARMORY_SCENARIOS, CONFORMANCE_VERSION, runServerScenario, serverScenarios, startTokenPassThrough } from "./support/conformance.mjs"

const bin = join(import.meta.dirname, "..", "dist", "bin.js")
const TOKEN = "conformance-token-0123456789"

let root = ""
let server: ChildProcessByStdio<null, Readable, Readable> | undefined
let passThrough: { readonly url: string; readonly close: () => Promise<void> } | undefined

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "armory-conformance-project-"))
  mkdirSync(join(root, ".armory", "skills", "pdf-tools"), { recursive: true })
  writeFileSync(join(root, ".armory", "skills", "pdf-tools", "SKILL.md"), "---\nname: pdf-tools\ndescription: Work with PDF files.\n---\n# PDF\n")
  writeFileSync(join(root, "token"), TOKEN)
  const started = spawn(process.execPath, [bin, "mcp", "--http", "--port", "0", "--token-file", join(root, "token"), "--json"], {
    cwd: root,
    env: { ...process.env, HOME: root },
    stdio: ["ignore", "pipe", "pipe"]
  })
  server = started
  let printed = ""
  started.stdout.setEncoding("utf8")
  const url = await new Promise<string>((resolve, reject) => {
    started.stdout.on("data", (chunk: string) => {
      printed += chunk
      const line = printed.split("\n").find((text) => text.startsWith("{"))
      if (line !== undefined) resolve((JSON.parse(line) as { url: string }).url)
    })
    started.once("exit", (code) => reject(new Error(`armory mcp --http exited ${code} before listening: ${printed}`)))
  })
  passThrough = await startTokenPassThrough(url, TOKEN)
}, 60_000)

afterAll(async () => {
  await passThrough?.close()
  if (server !== undefined && server.exitCode === null) {
    server.kill("SIGTERM")
    await once(server, "exit")
  }
  rmSync(root, { recursive: true, force: true })
})

describe(`the official MCP conformance suite ${CONFORMANCE_VERSION} against armory mcp --http`, () => {
  it("knows every server scenario of the suite: each applies, or says why not", async () => {
    const known = [...ARMORY_SCENARIOS.applies, ...Object.keys(ARMORY_SCENARIOS.notApplicable)].toSorted()
    expect(known).toEqual((await serverScenarios()).toSorted())
  })

  it.each(ARMORY_SCENARIOS.applies)("passes %s", async (scenario) => {
    const run = await runServerScenario(passThrough?.url ?? "", scenario)
    const failed = run.checks.filter((check) => check.status === "FAILURE" || check.status === "WARNING")
    expect(failed).toEqual([])
    expect(run.checks.filter((check) => check.status === "SUCCESS").length).toBeGreaterThan(0)
    expect(run.code).toBe(0)
  })
})
