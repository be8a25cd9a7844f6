import { spawn } from "node:child_process"
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { runBench } from "@armory/bench"
import { probeBrowserDriver } from "@armory/capability-probe"

const bin = mkdtempSync(join(tmpdir(), "capability-probe-bench-"))
writeFileSync(join(bin, "agent-browser"), '#!/bin/sh\necho "agent-browser 0.34.0"\n')
chmodSync(join(bin, "agent-browser"), 0o755)
const path = `${bin}:/usr/bin:/bin`

/** Spawns `file` bare and resolves with its stdout once it has exited. */
const run = (file: string, args: ReadonlyArray<string>): Promise<string> =>
  new Promise((resolve, reject) => {
    const child = spawn(file, args, { env: { PATH: path }, stdio: ["ignore", "pipe", "ignore"] })
    let stdout = ""
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
    child.once("error", reject)
    child.once("close", () => resolve(stdout))
  })

const floor = async () => {
  const resolved = (await run("/bin/sh", ["-c", "command -v agent-browser"])).trim()
  return run(resolved, ["--version"])
}

const ours = async () => {
  const result = await probeBrowserDriver({ path })
  if (result.status !== "available") throw new Error(`the fake driver should be available: ${JSON.stringify(result)}`)
}

await runBench({
  name: "capability-probe",
  anchor: "the physical floor: `sh -c 'command -v agent-browser'` then the driver's --version, spawned bare",
  timeMs: 3000,
  warmupMs: 300,
  // The bar: ours at most 1.25× the floor, i.e. anchor median / ours median at least 0.8.
  cases: [{ name: "probe of an available fake driver", ours, anchor: floor, target: { ratio: 0.8 } }]
})
