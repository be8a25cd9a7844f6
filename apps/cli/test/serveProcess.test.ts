import { spawn } from "node:child_process"
import { once } from "node:events"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

const bin = join(import.meta.dirname, "..", "dist", "bin.js")
const EXAMPLES = join(import.meta.dirname, "..", "..", "..", "examples", "skills")
const TOKEN = "shutdown-test-token"

describe("armory serve as a process", () => {
  it("finishes an in-flight request on SIGTERM, then exits 130 and stops listening", async () => {
    const server = spawn(process.execPath, [bin, "serve", "--port", "0", "--dir", EXAMPLES], {
      env: { ...process.env, ARMORY_TOKEN: TOKEN },
      stdio: ["ignore", "pipe", "pipe"]
    })
    const exited = once(server, "exit")
    let stdout = ""
    server.stdout.setEncoding("utf8")
    const url = await new Promise<string>((resolve, reject) => {
      server.stdout.on("data", (chunk: string) => {
        stdout += chunk
        const match = /http:\/\/127\.0\.0\.1:\d+/.exec(stdout)
        if (match !== null) resolve(match[0])
      })
      server.once("exit", (code) => reject(new Error(`armory serve exited ${code} before listening: ${stdout}`)))
    })

    // A guest that keeps the request busy for a while, so the signal lands mid-request.
    const inFlight = fetch(`${url}/codemode/execute`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ code: "const started = Date.now(); while (Date.now() - started < 1500) {} return 42" })
    })
    await new Promise((resolve) => setTimeout(resolve, 500))
    server.kill("SIGTERM")

    const response = await inFlight
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ status: "completed", result: 42 })
    const [code] = await exited
    expect(code).toBe(130)
    await expect(fetch(`${url}/health`)).rejects.toThrow("fetch failed")
  }, 30_000)
})
