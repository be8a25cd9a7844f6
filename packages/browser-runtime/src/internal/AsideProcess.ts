import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { setTimeout as sleep } from "node:timers/promises"

/** Output kept per process; a REPL that floods is cut off, never buffered without bound. */
const MAX_BUFFER_BYTES = 64 * 1024

// oxlint-disable-next-line no-control-regex -- terminal escape sequences are what this pattern removes
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]/g

const groupAlive = (pid: number): boolean => {
  try {
    process.kill(-pid, 0)
    return true
  } catch {
    return false
  }
}

/**
 * One `aside repl` child in its own process group, a fresh empty working directory and an
 * environment of PATH and HOME only, so the caller's secrets and files never reach it.
 */
export class AsideProcess {
  private output = ""
  private exitReason: string | null = null
  private readonly listeners = new Set<() => void>()

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly directory: string
  ) {
    const append = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString("utf8")).slice(-MAX_BUFFER_BYTES)
      this.notify()
    }
    child.stdout.on("data", append)
    child.stderr.on("data", append)
    child.once("error", (error) => {
      this.exitReason = `cannot run it: ${error.message}`
      this.notify()
    })
    child.once("exit", (code, signal) => {
      this.exitReason ??= `it exited (${signal ?? `code ${code ?? "?"}`})`
      this.notify()
    })
  }

  static start(command: string, env: Readonly<Record<string, string | undefined>>): AsideProcess {
    const directory = mkdtempSync(join(tmpdir(), "armory-aside-"))
    const minimal: Record<string, string> = {}
    for (const name of ["PATH", "HOME"]) {
      const value = env[name]
      if (value !== undefined) minimal[name] = value
    }
    const child = spawn(command, ["repl"], { cwd: directory, env: minimal, detached: true, stdio: "pipe" })
    return new AsideProcess(child, directory)
  }

  private notify(): void {
    for (const listener of this.listeners) listener()
  }

  /** The ANSI-free lines written so far. */
  lines(): ReadonlyArray<string> {
    return this.output.replace(ANSI, "").split(/\r?\n/)
  }

  /** Forgets what was written so far, so the next wait sees only new output. */
  clear(): void {
    this.output = ""
  }

  write(line: string): void {
    this.child.stdin.write(`${line}\n`)
  }

  /**
   * Waits until `find` returns a value from the output, the process ends or the deadline passes;
   * the failure names what happened.
   */
  waitFor<A>(find: () => A | null, timeoutMs: number, what: string): Promise<A> {
    return new Promise((resolve, reject) => {
      const done = () => {
        clearTimeout(deadline)
        this.listeners.delete(check)
      }
      const check = () => {
        const found = find()
        if (found !== null) {
          done()
          resolve(found)
        } else if (this.exitReason !== null) {
          done()
          reject(new Error(`${what}: ${this.exitReason}`))
        }
      }
      const deadline = setTimeout(() => {
        done()
        reject(new Error(`${what}: no answer within ${timeoutMs} ms`))
      }, timeoutMs)
      this.listeners.add(check)
      check()
    })
  }

  /** Kills the process group and waits until no member is left. */
  async stop(): Promise<void> {
    const pid = this.child.pid
    if (pid !== undefined && groupAlive(pid)) {
      try {
        process.kill(-pid, "SIGKILL")
      } catch {
        // The group emptied between the check and the kill.
      }
      for (let waited = 0; groupAlive(pid) && waited < 5000; waited += 20) await sleep(20)
      if (groupAlive(pid)) throw new Error(`the aside process group ${pid} survived SIGKILL`)
    }
    this.child.stdin.destroy()
    rmSync(this.directory, { recursive: true, force: true })
  }
}
