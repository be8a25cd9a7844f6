// The helpers live inside superviseRun on purpose: its source must be self-contained (see below).
/* oxlint-disable unicorn/consistent-function-scoping */
import type { ChildProcess } from "node:child_process"
import type { CleanupReport, RunOutcome, RunRequest } from "./RunCommand.js"

/**
 * Runs one request as a real process and proves it is gone afterwards.
 *
 * POSIX: the child leads its own detached process group (and session). The group is killed on
 * timeout or overflow and also after a normal exit (a background child may outlive its parent),
 * then checked empty. On Linux the processes that appeared during the run (those with pids handed
 * out after it started) are inspected: one still in the run's session, or (for the version run, whose working directory is
 * private) still working in that directory, escaped the group (e.g. with `setsid`); it is killed
 * and the cleanup reported failed. So is anything that still holds the output pipes afterwards.
 * Windows: only the direct child is stopped and the report says no more than that.
 *
 * This function must stay self-contained: it only uses its argument and globals (builtins via
 * `process.getBuiltinModule`), because `probeDriverSync` evaluates its source in a worker thread.
 */
export async function superviseRun(request: RunRequest): Promise<RunOutcome> {
  const childProcesses = process.getBuiltinModule("node:child_process")
  const fs = process.getBuiltinModule("node:fs")
  const posix = process.platform !== "win32"
  const hasProc = posix && fs.existsSync("/proc/self/stat")
  const GROUP_EXIT_GRACE_MS = 2000
  const PIPE_CLOSE_GRACE_MS = 1000
  const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
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
  const errorCode = (error: unknown): string => {
    const code = typeof error === "object" && error !== null && "code" in error ? error.code : undefined
    return typeof code === "string" && /^[A-Z0-9_]+$/.test(code) ? code : "EUNKNOWN"
  }
  const listPids = (): ReadonlyArray<number> =>
    fs.readdirSync("/proc").filter((name) => /^\d+$/.test(name)).map(Number)
  // The kernel hands out pids in increasing order, wrapping at pid_max; the last one it handed out
  // bounds which processes are new, so a short run needs no listing of /proc at all.
  const lastPid = (): number | null => {
    try {
      const pid = Number(fs.readFileSync("/proc/sys/kernel/ns_last_pid", "utf8"))
      return Number.isSafeInteger(pid) && pid > 0 ? pid : null
    } catch {
      return null
    }
  }
  const MAX_PIDS_PROBED_DIRECTLY = 8
  /** Every pid (or thread id) that may belong to a process started after `since` was taken. */
  const processesStartedAfter = (since: { readonly lastPid: number | null; readonly existing: ReadonlySet<number> }): ReadonlyArray<number> => {
    const last = lastPid()
    if (since.lastPid === null || last === null) return listPids().filter((pid) => !since.existing.has(pid))
    const first = since.lastPid
    if (last >= first && last - first <= MAX_PIDS_PROBED_DIRECTLY) {
      return Array.from({ length: last - first }, (_, index) => first + 1 + index)
    }
    const wrapped = last < first
    return listPids().filter((pid) => (wrapped ? pid > first || pid <= last : pid > first && pid <= last))
  }
  // /proc/<pid>/stat: "pid (comm) state ppid pgrp session ..."; comm may contain spaces and parentheses.
  const readStat = (pid: number): { state: string; pgrp: number; session: number } | null => {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8")
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
      return { state: fields[0] ?? "", pgrp: Number(fields[2]), session: Number(fields[3]) }
    } catch {
      return null
    }
  }
  const workingDirectory = (pid: number): string | null => {
    try {
      return fs.readlinkSync(`/proc/${pid}/cwd`)
    } catch {
      return null
    }
  }
  // /proc reports a working directory with symlinks resolved; the request may name it through one.
  const privateDirectories = (): ReadonlyArray<string> => {
    try {
      return [request.cwd, fs.realpathSync(request.cwd)]
    } catch {
      return [request.cwd]
    }
  }
  const killGroup = (pgid: number) => {
    try {
      process.kill(-pgid, "SIGKILL")
    } catch {
      // ESRCH: the group is already empty.
    }
  }
  // A zombie has finished; only its parent's reaping is pending, so it does not count as left behind.
  const groupHasLiveMembers = (pgid: number): boolean => {
    try {
      process.kill(-pgid, 0)
    } catch {
      return false
    }
    if (!hasProc) return true
    return listPids().some((pid) => {
      const stat = readStat(pid)
      return stat !== null && stat.pgrp === pgid && stat.state !== "Z"
    })
  }

  const startedAfter = (() => {
    if (!hasProc) return { lastPid: null, existing: new Set<number>() }
    const last = lastPid()
    return { lastPid: last, existing: new Set(last === null ? listPids() : []) }
  })()
  const chunks = { stdout: [] as Array<Buffer>, stderr: [] as Array<Buffer> }
  const sizes = { stdout: 0, stderr: 0 }
  let overflow: "stdout" | "stderr" | null = null
  let timedOut = false

  let child: ChildProcess
  try {
    child = childProcesses.spawn(request.file, [...request.args], {
      cwd: request.cwd,
      env: { ...request.env },
      stdio: ["ignore", "pipe", "pipe"],
      detached: posix,
      shell: false,
      windowsHide: true
    })
  } catch (error) {
    return failedToStart(errorCode(error))
  }

  const stop = () => {
    if (posix && child.pid !== undefined) killGroup(child.pid)
    else child.kill("SIGKILL")
  }
  const streamsClosed = Promise.all(
    (["stdout", "stderr"] as const).map(
      (name) =>
        new Promise<void>((resolve) => {
          const stream = child[name]
          if (stream === null) return resolve()
          stream.on("data", (chunk: Buffer) => {
            const room = request.maxOutputBytes - sizes[name]
            if (room > 0) chunks[name].push(chunk.subarray(0, room))
            sizes[name] += chunk.length
            if (sizes[name] > request.maxOutputBytes && overflow === null) {
              overflow = name
              stop()
            }
          })
          stream.on("close", () => resolve())
          stream.on("error", () => resolve())
        })
    )
  )
  const ended = await new Promise<{ code: number | null; signal: string | null } | { spawnError: string }>((resolve) => {
    const timer = setTimeout(() => {
      timedOut = true
      stop()
    }, request.timeoutMs)
    child.once("exit", (code, signal) => {
      clearTimeout(timer)
      resolve({ code, signal })
    })
    child.once("error", (error) => {
      if (child.pid !== undefined) return
      clearTimeout(timer)
      resolve({ spawnError: errorCode(error) })
    })
  })
  if ("spawnError" in ended) return failedToStart(ended.spawnError)

  const cleanup = await verifyCleanup(child.pid ?? -1)
  return {
    stdout: Buffer.concat(chunks.stdout),
    stderr: Buffer.concat(chunks.stderr),
    exitCode: ended.code,
    signal: ended.signal,
    timedOut,
    overflow,
    spawnError: null,
    cleanup
  }

  function failedToStart(code: string): RunOutcome {
    return {
      stdout: "",
      stderr: "",
      exitCode: null,
      signal: null,
      timedOut: false,
      overflow: null,
      spawnError: code,
      cleanup: { verified: true, scope: !posix ? "direct-child" : hasProc ? "process-tree" : "process-group" }
    }
  }

  async function verifyCleanup(pgid: number): Promise<CleanupReport> {
    if (!posix) {
      await settlesWithin(streamsClosed, PIPE_CLOSE_GRACE_MS)
      child.stdout?.destroy()
      child.stderr?.destroy()
      return { verified: true, scope: "direct-child" }
    }
    killGroup(pgid)
    const giveUpAt = Date.now() + GROUP_EXIT_GRACE_MS
    while (groupHasLiveMembers(pgid)) {
      if (Date.now() > giveUpAt) return { verified: false, reason: `process group ${pgid} still has live members after SIGKILL` }
      await sleep(10)
    }
    const escapees = hasProc
      ? processesStartedAfter(startedAfter).filter((pid) => {
          if (pid === process.pid) return false
          const stat = readStat(pid)
          if (stat === null || stat.state === "Z") return false
          if (stat.pgrp === pgid || stat.session === pgid) return true
          const cwd = request.stage === "version" ? workingDirectory(pid) : null
          return cwd !== null && privateDirectories().some((directory) => cwd === directory || cwd.startsWith(`${directory}/`))
        })
      : []
    for (const pid of escapees) {
      try {
        process.kill(pid, "SIGKILL")
      } catch {
        // It exited between the scan and the kill.
      }
    }
    const isLive = (pid: number) => {
      const stat = readStat(pid)
      return stat !== null && stat.state !== "Z"
    }
    const escapeesGoneBy = Date.now() + GROUP_EXIT_GRACE_MS
    while (escapees.some(isLive) && Date.now() <= escapeesGoneBy) await sleep(10)
    const pipesClosed = await settlesWithin(streamsClosed, PIPE_CLOSE_GRACE_MS)
    if (!pipesClosed) {
      child.stdout?.destroy()
      child.stderr?.destroy()
    }
    if (escapees.length > 0) {
      const outcome = escapees.some(isLive) ? "could not all be killed" : "had to be killed"
      return {
        verified: false,
        reason: `${escapees.length} descendant process(es) escaped the process group (pid ${escapees.join(", ")}) and ${outcome}`
      }
    }
    if (!pipesClosed) return { verified: false, reason: "a process outside the process group still held the output pipes" }
    return { verified: true, scope: hasProc ? "process-tree" : "process-group" }
  }
}
