import { existsSync, readdirSync, readFileSync, readlinkSync } from "node:fs"

/** What Linux's /proc says about processes, for finding what a run left behind. */

export const hasProcfs = (): boolean => process.platform !== "win32" && existsSync("/proc/self/stat")

const listPids = (): ReadonlyArray<number> => readdirSync("/proc").filter((name) => /^\d+$/.test(name)).map(Number)

// The kernel hands out pids in increasing order, wrapping at pid_max; the last one it handed out
// bounds which processes are new, so a short run needs no listing of /proc at all.
const lastPid = (): number | null => {
  try {
    const pid = Number(readFileSync("/proc/sys/kernel/ns_last_pid", "utf8"))
    return Number.isSafeInteger(pid) && pid > 0 ? pid : null
  } catch {
    return null
  }
}

const MAX_PIDS_PROBED_DIRECTLY = 8

/** Where the pid sequence stood when a run started: its last pid, or (without one) every pid there was. */
export interface PidMark {
  readonly lastPid: number | null
  readonly existing: ReadonlySet<number>
}

export const markPids = (): PidMark => {
  const last = lastPid()
  return { lastPid: last, existing: new Set(last === null ? listPids() : []) }
}

/** Every pid (or thread id) that may belong to a process started after `since` was taken. */
export const pidsStartedAfter = (since: PidMark): ReadonlyArray<number> => {
  const last = lastPid()
  if (since.lastPid === null || last === null) return listPids().filter((pid) => !since.existing.has(pid))
  const first = since.lastPid
  if (last >= first && last - first <= MAX_PIDS_PROBED_DIRECTLY) {
    return Array.from({ length: last - first }, (_, index) => first + 1 + index)
  }
  const wrapped = last < first
  return listPids().filter((pid) => (wrapped ? pid > first || pid <= last : pid > first && pid <= last))
}

export interface ProcessStat {
  readonly state: string
  readonly pgrp: number
  readonly session: number
}

/** /proc/<pid>/stat: "pid (comm) state ppid pgrp session ..."; comm may contain spaces and parentheses. */
export const readStat = (pid: number): ProcessStat | null => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return { state: fields[0] ?? "", pgrp: Number(fields[2]), session: Number(fields[3]) }
  } catch {
    return null
  }
}

/** A zombie has finished; only its parent's reaping is pending, so it does not count as alive. */
export const isLive = (pid: number): boolean => {
  const stat = readStat(pid)
  return stat !== null && stat.state !== "Z"
}

export const hasLiveGroupMember = (pgid: number): boolean =>
  listPids().some((pid) => {
    const stat = readStat(pid)
    return stat !== null && stat.pgrp === pgid && stat.state !== "Z"
  })

export const workingDirectory = (pid: number): string | null => {
  try {
    return readlinkSync(`/proc/${pid}/cwd`)
  } catch {
    return null
  }
}
