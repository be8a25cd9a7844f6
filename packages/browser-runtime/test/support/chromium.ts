import { type ChildProcess, spawn } from "node:child_process"
import { CHROMIUM_FLAGS, chromiumExecutable } from "@armory/config/test-components"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { setTimeout as sleep } from "node:timers/promises"

/** A headless Chromium in its own process group with a throwaway profile. */
export interface LaunchedChromium {
  readonly pid: number
  readonly port: number
  readonly cdpUrl: string
  /** Kills the whole process group and waits until no member is left. */
  readonly kill: () => Promise<void>
}

const groupAlive = (pid: number): boolean => {
  try {
    process.kill(-pid, 0)
    return true
  } catch {
    return false
  }
}

/** Whether a process (not its group) exists. */
export const processAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

const waitFor = async <A>(what: string, timeoutMs: number, read: () => A | null): Promise<A> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = read()
    if (value !== null) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(50)
  }
}

const answersOn = async (port: number): Promise<number> => {
  const deadline = Date.now() + 20_000
  for (;;) {
    const answered = await fetch(`http://127.0.0.1:${port}/json/version`).then(
      (response) => response.ok,
      () => false
    )
    if (answered) return port
    if (Date.now() > deadline) throw new Error(`Chromium did not answer on port ${port}`)
    await sleep(100)
  }
}

/**
 * Starts Chromium (`ARMORY_CHROMIUM`, else Debian's) on `port`, or on a port it picks (read back
 * from `DevToolsActivePort`), optionally with the user's download folder set in its profile; throws, naming what is missing, when there is no Chromium.
 */
export const launchChromium = async (port = 0, options: { readonly downloadsDirectory?: string } = {}): Promise<LaunchedChromium> => {
  const executable = chromiumExecutable()
  const profile = mkdtempSync(join(tmpdir(), "armory-chromium-"))
  if (options.downloadsDirectory !== undefined) {
    // The user's own download folder, as their browser settings would have it.
    mkdirSync(join(profile, "Default"), { recursive: true })
    const preferences = { download: { default_directory: options.downloadsDirectory, prompt_for_download: false } }
    writeFileSync(join(profile, "Default", "Preferences"), JSON.stringify(preferences))
  }
  const child: ChildProcess = spawn(executable, [...CHROMIUM_FLAGS, `--remote-debugging-port=${port}`, `--user-data-dir=${profile}`, "about:blank"], {
    detached: true,
    stdio: "ignore"
  })
  const pid = child.pid
  if (pid === undefined) throw new Error(`cannot start ${executable}`)
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  const kill = async () => {
    if (groupAlive(pid)) process.kill(-pid, "SIGKILL")
    await exited
    await waitFor("the Chromium process group to be gone", 10_000, () => (groupAlive(pid) ? null : true))
    rmSync(profile, { recursive: true, force: true })
  }
  try {
    // Chromium writes DevToolsActivePort only for a port it picked; a fixed port is polled instead.
    const active =
      port === 0
        ? await waitFor("DevToolsActivePort", 20_000, () => {
            const file = join(profile, "DevToolsActivePort")
            if (!existsSync(file)) return null
            const value = Number.parseInt(readFileSync(file, "utf8").split("\n")[0] ?? "", 10)
            return Number.isInteger(value) && value > 0 ? value : null
          })
        : await answersOn(port)
    return { pid, port: active, cdpUrl: `http://127.0.0.1:${active}`, kill }
  } catch (error) {
    await kill()
    throw error
  }
}
