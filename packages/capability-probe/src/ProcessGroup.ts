import { type ChildProcess, spawn } from "node:child_process"
import { realpathSync } from "node:fs"
import { setTimeout as sleep } from "node:timers/promises"
import type { CleanupReport, RunOutcome, RunRequest } from "./RunCommand.js"
import { hasLiveGroupMember, hasProcfs, isLive, markPids, type PidMark, pidsStartedAfter, readStat, workingDirectory } from "./internal/procfs.js"

const GROUP_EXIT_GRACE_MS = 2000
const PIPE_CLOSE_GRACE_MS = 1000
const POLL_MS = 10

/** What a run can find out and do on this platform. */
interface Platform {
  readonly posix: boolean
  /** Linux's /proc, to look for processes that left the run's process group. */
  readonly procfs: boolean
}

const errorCode = (error: unknown): string => {
  const code = typeof error === "object" && error !== null && "code" in error ? error.code : undefined
  return typeof code === "string" && /^[A-Z0-9_]+$/.test(code) ? code : "EUNKNOWN"
}

// Whether `promise` settles within `ms`; the timer is cleared as soon as it does, so a probe that
// is done leaves nothing behind to keep the host's event loop alive.
const settlesWithin = (promise: Promise<unknown>, ms: number) =>
  new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), ms)
    void promise.then(() => {
      clearTimeout(timer)
      resolve(true)
    })
  })

const killGroup = (pgid: number) => {
  try {
    process.kill(-pgid, "SIGKILL")
  } catch {
    // ESRCH: the group is already empty.
  }
}

const groupHasLiveMembers = (pgid: number, platform: Platform): boolean => {
  try {
    process.kill(-pgid, 0)
  } catch {
    return false
  }
  return !platform.procfs || hasLiveGroupMember(pgid)
}

const cleanupScope = (platform: Platform) => (!platform.posix ? "direct-child" : platform.procfs ? "process-tree" : "process-group")

const failedToStart = (code: string, platform: Platform): RunOutcome => ({
  stdout: "",
  stderr: "",
  exitCode: null,
  signal: null,
  timedOut: false,
  overflow: null,
  spawnError: code,
  cleanup: { verified: true, scope: cleanupScope(platform) }
})

type StreamName = "stdout" | "stderr"

/** A run's output as it arrives, each stream kept to `maxOutputBytes`. */
interface CapturedOutput {
  /** Settles once both pipes have closed. */
  readonly closed: Promise<void>
  readonly bytes: (name: StreamName) => Buffer
  /** The first stream that went over the cap, or null. */
  readonly overflow: () => StreamName | null
}

/** Collects both output pipes; the first byte over the cap on either calls `stop`. */
const captureOutput = (child: ChildProcess, maxOutputBytes: number, stop: () => void): CapturedOutput => {
  const chunks: Record<StreamName, Array<Buffer>> = { stdout: [], stderr: [] }
  const sizes: Record<StreamName, number> = { stdout: 0, stderr: 0 }
  let overflow: StreamName | null = null
  const collect = (name: StreamName) =>
    new Promise<void>((resolve) => {
      const stream = child[name]
      if (stream === null) return resolve()
      stream.on("data", (chunk: Buffer) => {
        const room = maxOutputBytes - sizes[name]
        if (room > 0) chunks[name].push(chunk.subarray(0, room))
        sizes[name] += chunk.length
        if (sizes[name] > maxOutputBytes && overflow === null) {
          overflow = name
          stop()
        }
      })
      stream.on("close", () => resolve())
      stream.on("error", () => resolve())
    })
  return {
    closed: Promise.all([collect("stdout"), collect("stderr")]).then(() => undefined),
    bytes: (name) => Buffer.concat(chunks[name]),
    overflow: () => overflow
  }
}

type Ended = { readonly code: number | null; readonly signal: string | null; readonly timedOut: boolean } | { readonly spawnError: string }

/** Waits for the child to exit, stopping it once `timeoutMs` has passed. */
const awaitExit = (child: ChildProcess, timeoutMs: number, stop: () => void): Promise<Ended> =>
  new Promise((resolve) => {
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      stop()
    }, timeoutMs)
    child.once("exit", (code, signal) => {
      clearTimeout(timer)
      resolve({ code, signal, timedOut })
    })
    child.once("error", (error) => {
      if (child.pid !== undefined) return
      clearTimeout(timer)
      resolve({ spawnError: errorCode(error) })
    })
  })

// /proc reports a working directory with symlinks resolved; the request may name it through one.
const privateDirectories = (cwd: string): ReadonlyArray<string> => {
  try {
    return [cwd, realpathSync(cwd)]
  } catch {
    return [cwd]
  }
}

/**
 * Processes that appeared during the run and are still alive outside its group: in its session,
 * or (for the version run, whose working directory is private) working in that directory.
 */
const findEscapees = (request: RunRequest, pgid: number, since: PidMark): ReadonlyArray<number> =>
  pidsStartedAfter(since).filter((pid) => {
    if (pid === process.pid) return false
    const stat = readStat(pid)
    if (stat === null || stat.state === "Z") return false
    if (stat.pgrp === pgid || stat.session === pgid) return true
    const cwd = request.stage === "version" ? workingDirectory(pid) : null
    return cwd !== null && privateDirectories(request.cwd).some((directory) => cwd === directory || cwd.startsWith(`${directory}/`))
  })

const killEach = (pids: ReadonlyArray<number>) => {
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL")
    } catch {
      // It exited between the scan and the kill.
    }
  }
}

const waitUntil = async (done: () => boolean, graceMs: number): Promise<boolean> => {
  const giveUpAt = Date.now() + graceMs
  while (!done()) {
    if (Date.now() > giveUpAt) return false
    await sleep(POLL_MS)
  }
  return true
}

/** Lets the pipes close, and cuts them off when something still holds them open. */
const closePipes = async (child: ChildProcess, output: CapturedOutput): Promise<boolean> => {
  const closed = await settlesWithin(output.closed, PIPE_CLOSE_GRACE_MS)
  if (!closed) {
    child.stdout?.destroy()
    child.stderr?.destroy()
  }
  return closed
}

/** Proves that every process of a POSIX run is gone: the group, then escapees, then the pipes. */
const verifyGroupCleanup = async (
  request: RunRequest,
  child: ChildProcess,
  output: CapturedOutput,
  platform: Platform,
  since: PidMark
): Promise<CleanupReport> => {
  const pgid = child.pid ?? -1
  killGroup(pgid)
  if (!(await waitUntil(() => !groupHasLiveMembers(pgid, platform), GROUP_EXIT_GRACE_MS))) {
    return { verified: false, reason: `process group ${pgid} still has live members after SIGKILL` }
  }
  const escapees = platform.procfs ? findEscapees(request, pgid, since) : []
  killEach(escapees)
  await waitUntil(() => !escapees.some(isLive), GROUP_EXIT_GRACE_MS)
  const pipesClosed = await closePipes(child, output)
  if (escapees.length > 0) {
    const outcome = escapees.some(isLive) ? "could not all be killed" : "had to be killed"
    return {
      verified: false,
      reason: `${escapees.length} descendant process(es) escaped the process group (pid ${escapees.join(", ")}) and ${outcome}`
    }
  }
  if (!pipesClosed) return { verified: false, reason: "a process outside the process group still held the output pipes" }
  return { verified: true, scope: cleanupScope(platform) }
}

/** Windows: the direct child has exited; nothing is claimed about its descendants. */
const verifyChildCleanup = async (child: ChildProcess, output: CapturedOutput): Promise<CleanupReport> => {
  await closePipes(child, output)
  return { verified: true, scope: "direct-child" }
}

/**
 * Runs one request as a real process and proves it is gone afterwards.
 *
 * POSIX: the child leads its own detached process group (and session). The group is killed on
 * timeout or overflow and also after a normal exit (a background child may outlive its parent),
 * then checked empty. On Linux the processes that appeared during the run (those with pids handed
 * out after it started) are inspected: one still in the run's session, or (for the version run,
 * whose working directory is private) still working in that directory, escaped the group (e.g. with
 * `setsid`); it is killed and the cleanup reported failed. So is anything that still holds the
 * output pipes afterwards. Windows: only the direct child is stopped and the report says no more
 * than that.
 */
export async function superviseRun(request: RunRequest): Promise<RunOutcome> {
  const platform: Platform = { posix: process.platform !== "win32", procfs: hasProcfs() }
  const since: PidMark = platform.procfs ? markPids() : { lastPid: null, existing: new Set() }
  let child: ChildProcess
  try {
    child = spawn(request.file, [...request.args], {
      cwd: request.cwd,
      env: { ...request.env },
      stdio: ["ignore", "pipe", "pipe"],
      detached: platform.posix,
      shell: false,
      windowsHide: true
    })
  } catch (error) {
    return failedToStart(errorCode(error), platform)
  }
  const stop = () => {
    if (platform.posix && child.pid !== undefined) killGroup(child.pid)
    else child.kill("SIGKILL")
  }
  const output = captureOutput(child, request.maxOutputBytes, stop)
  const ended = await awaitExit(child, request.timeoutMs, stop)
  if ("spawnError" in ended) return failedToStart(ended.spawnError, platform)
  const cleanup = platform.posix ? await verifyGroupCleanup(request, child, output, platform, since) : await verifyChildCleanup(child, output)
  return {
    stdout: output.bytes("stdout"),
    stderr: output.bytes("stderr"),
    exitCode: ended.code,
    signal: ended.signal,
    timedOut: ended.timedOut,
    overflow: output.overflow(),
    spawnError: null,
    cleanup
  }
}
