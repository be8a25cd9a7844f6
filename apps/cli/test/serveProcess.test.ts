import { existsSync, mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { openGoalStore } from "@armory/goal-store"
import { describe, expect, it } from "vitest"
import { armory, startServe } from "./support/armory.js"

const EXAMPLES = join(import.meta.dirname, "..", "..", "..", "examples", "skills")
const TOKEN = "shutdown-test-token"

const execute = (url: string, code: string) =>
  fetch(`${url}/codemode/execute`, {
    method: "POST",
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({ code })
  })

describe("armory serve as a process", () => {
  it("reports on /health the version `armory --version` prints", async () => {
    const { server, exited, url } = await startServe(["--dir", EXAMPLES], { ARMORY_TOKEN: TOKEN })
    try {
      const health = (await (await fetch(`${url}/health`)).json()) as { readonly version: string; readonly api: string }
      const printed = (await armory(["--version"])).stdout.trim()
      expect(printed).toBe(`armory v${health.version}`)
      expect(health.api).toMatch(/^\d+\.\d+\.\d+$/)
    } finally {
      server.kill("SIGTERM")
      await exited
    }
  }, 30_000)

  it("finishes an in-flight request on SIGTERM, then exits 130 and stops listening", async () => {
    const { server, exited, url } = await startServe(["--dir", EXAMPLES], { ARMORY_TOKEN: TOKEN })

    // A guest that keeps the request busy for a while, so the signal lands mid-request.
    const inFlight = execute(url, "const started = Date.now(); while (Date.now() - started < 1500) {} return 42")
    await new Promise((resolve) => setTimeout(resolve, 500))
    server.kill("SIGTERM")

    const response = await inFlight
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ status: "completed", result: 42 })
    const [code] = await exited
    expect(code).toBe(130)
    await expect(fetch(`${url}/health`)).rejects.toThrow("fetch failed")
  }, 30_000)

  it("lets goal mutations in flight at SIGTERM finish, then leaves no lock and no lost event", async () => {
    const root = join(mkdtempSync(join(tmpdir(), "armory-serve-goals-")), "goals")
    const { server, exited, url } = await startServe(["--dir", EXAMPLES, "--goals-root", root], { ARMORY_TOKEN: TOKEN })
    // A mutation every few milliseconds for a while (well under the tool-call limit), so the signal
    // lands while one is in flight.
    const inFlight = execute(
      url,
      `await goals.set({ objective: "Survive shutdown" })
       let count = 0
       const started = Date.now()
       while (Date.now() - started < 1500) {
         const paused = Date.now()
         while (Date.now() - paused < 3) {}
         await goals.checkpoint({ summary: "tick " + count++ })
       }
       return count`
    )
    await new Promise((resolve) => setTimeout(resolve, 500))
    server.kill("SIGTERM")

    const response = await inFlight
    expect(response.status).toBe(200)
    const { status, result: checkpoints } = (await response.json()) as { status: string; result: number }
    expect(status).toBe("completed")
    expect(checkpoints).toBeGreaterThan(0)
    const [code] = await exited
    expect(code).toBe(130)

    expect(existsSync(join(root, ".lock"))).toBe(false)
    const ledger = readFileSync(join(root, "ledger.jsonl"), "utf8").trim().split("\n")
    expect(ledger).toHaveLength(1 + checkpoints)
    const store = await openGoalStore({ root, lock: { timeoutMs: 1000 } })
    expect((await store.checkpoint({ summary: "after the restart" })).summary).toBe("after the restart")
  }, 30_000)
})
