import { spawn } from "node:child_process"
import { join } from "node:path"

export interface ChildRun {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly stdout: string
  readonly stderr: string
  /** The last line the script printed, parsed as JSON (the script's report), when there is one. */
  readonly report: unknown
}

/**
 * Runs `script` (an ES module that imports `@armory/codemode`, the built package) in a process of
 * its own, so that an attack that crashes or hangs the host takes that process down, not the suite.
 * The process must end by itself: nothing calls `process.exit` for it.
 */
export const runInChild = (script: string, nodeOptions: ReadonlyArray<string> = []): Promise<ChildRun> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [...nodeOptions, "--input-type=module", "-e", script], {
      cwd: join(import.meta.dirname, "..", ".."),
      stdio: ["ignore", "pipe", "pipe"]
    })
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
    child.on("close", (code, signal) => {
      const last = stdout.trimEnd().split("\n").at(-1) ?? ""
      let report: unknown
      try {
        report = JSON.parse(last)
      } catch {
        report = undefined
      }
      resolve({ code, signal, stdout, stderr, report })
    })
  })
