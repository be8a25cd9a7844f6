import { execFile } from "node:child_process"
import { join } from "node:path"

const bin = join(import.meta.dirname, "..", "..", "dist", "bin.js")

export interface Run {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/** Runs the built `armory` binary as a real child process. */
export const armory = (
  args: ReadonlyArray<string>,
  options: { readonly env?: NodeJS.ProcessEnv; readonly cwd?: string } = {}
): Promise<Run> =>
  new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      { env: { ...process.env, ...options.env }, cwd: options.cwd },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1
        resolve({ code, stdout, stderr })
      }
    )
  })
