import { type ChildProcessByStdio, execFile, spawn } from "node:child_process"
import { once } from "node:events"
import type { Readable } from "node:stream"
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

export interface RunningServe {
  readonly server: ChildProcessByStdio<null, Readable, Readable>
  /** Resolves with `[code, signal]` once the process has exited. */
  readonly exited: Promise<Array<unknown>>
  readonly url: string
}

/** Starts `armory serve --port 0 …` as a real child process; resolves once it prints the URL it listens on. */
export const startServe = async (args: ReadonlyArray<string>, env: NodeJS.ProcessEnv = {}): Promise<RunningServe> => {
  const server = spawn(process.execPath, [bin, "serve", "--port", "0", ...args], {
    env: { ...process.env, ...env },
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
  return { server, exited, url }
}
