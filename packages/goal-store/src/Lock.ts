import { randomUUID } from "node:crypto"
import { mkdirSync, readFileSync, rmdirSync, statSync, unlinkSync, utimesSync, writeFileSync } from "node:fs"
import { hostname } from "node:os"
import { join } from "node:path"
import { Clock, Effect } from "effect"
import { LockUnavailable } from "./Errors.js"

/**
 * The per-session writer lock: a directory created with `mkdir` (atomic) holding `owner.json` (the
 * owner's pid, host and a random token), written right after with an exclusive create. The heartbeat
 * is the owner file's mtime, refreshed while the lock is held. A lock
 * is stale when its owner is a dead process on this host or its heartbeat is older than `staleMs`; a
 * stale lock is broken under a second, short-lived `.break` directory so two breakers never both win.
 */
export interface LockOptions {
  /** Heartbeat age after which a lock is stale even if its owner looks alive (other hosts, reused pids). */
  readonly staleMs?: number
  /** How often a held lock refreshes its heartbeat. */
  readonly heartbeatMs?: number
  /** How long to wait for the lock before failing with `LockUnavailable`. */
  readonly timeoutMs?: number
}

export interface LockOwner {
  readonly pid: number
  readonly host: string
  readonly token: string
  readonly acquiredAt: number
  /** The owner file's mtime: when the holder last proved it is alive. */
  readonly heartbeatAt: number
}

export interface HeldLock {
  readonly path: string
  readonly token: string
  /** Fails when the lock is no longer this holder's (broken as stale, removed by hand). */
  readonly verify: Effect.Effect<void, LockUnavailable>
  readonly release: Effect.Effect<void>
}

const OWNER_FILE = "owner.json"
const DEFAULT_STALE_MS = 10_000
const DEFAULT_HEARTBEAT_MS = 2_000
const DEFAULT_TIMEOUT_MS = 30_000
/**
 * A breaker holds `.break`, and a new lock lacks its owner file, only between two syscalls; one older
 * than this belongs to a process that died there (a killed writer may die while breaking the lock of
 * an earlier killed writer).
 */
const BREAK_STALE_MS = 1_000
const OWNERLESS_STALE_MS = BREAK_STALE_MS

let thisHost: string | undefined
/** This machine's name, read once rather than by a system call on every attempt on a busy lock. */
const localHost = (): string => (thisHost ??= hostname())

const errnoCode = (error: unknown): string | undefined => (error as NodeJS.ErrnoException | undefined)?.code

const parseOwner = (text: string): Omit<LockOwner, "heartbeatAt"> | undefined => {
  const owner = JSON.parse(text) as Partial<LockOwner>
  if (
    typeof owner.pid !== "number" ||
    typeof owner.host !== "string" ||
    typeof owner.token !== "string" ||
    typeof owner.acquiredAt !== "number"
  ) {
    return undefined
  }
  return { pid: owner.pid, host: owner.host, token: owner.token, acquiredAt: owner.acquiredAt }
}

const readOwner = (lockPath: string): LockOwner | undefined => {
  try {
    const file = join(lockPath, OWNER_FILE)
    const owner = parseOwner(readFileSync(file, "utf8"))
    return owner === undefined ? undefined : { ...owner, heartbeatAt: statSync(file).mtimeMs }
  } catch {
    return undefined
  }
}

/** The token of the lock's owner, without its heartbeat: all a holder needs to know the lock is still its own. */
const readOwnerToken = (lockPath: string): string | undefined => {
  try {
    return parseOwner(readFileSync(join(lockPath, OWNER_FILE), "utf8"))?.token
  } catch {
    return undefined
  }
}

/** Whether a process with this pid exists on this host (EPERM means it exists under another user). */
export const processIsAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return errnoCode(error) === "EPERM"
  }
}

const ageOf = (path: string, now: number): number | undefined => {
  try {
    return now - statSync(path).mtimeMs
  } catch {
    return undefined
  }
}

const isStale = (lockPath: string, owner: LockOwner | undefined, staleMs: number, now: number): boolean => {
  if (owner === undefined) {
    // A writer fills in the owner right after creating the directory; an ownerless lock older than a
    // moment belongs to a writer that died in between.
    const age = ageOf(lockPath, now)
    return age !== undefined && age > Math.min(staleMs, OWNERLESS_STALE_MS)
  }
  if (owner.host === localHost() && !processIsAlive(owner.pid)) return true
  return now - owner.heartbeatAt > staleMs
}

const ignoringMissing = (remove: () => void) => {
  try {
    remove()
  } catch (error) {
    if (errnoCode(error) !== "ENOENT") throw error
  }
}

const removeLockDirectory = (lockPath: string) => {
  ignoringMissing(() => unlinkSync(join(lockPath, OWNER_FILE)))
  try {
    rmdirSync(lockPath)
  } catch (error) {
    // ENOTEMPTY: a writer whose mkdir preceded this removal wrote its owner file meanwhile; the lock is theirs.
    if (errnoCode(error) !== "ENOENT" && errnoCode(error) !== "ENOTEMPTY") throw error
  }
}

/** Breaks the lock only if it still has the owner that was judged stale. */
const breakStaleLock = (lockPath: string, judged: LockOwner | undefined, staleMs: number, now: number) => {
  const breakPath = `${lockPath}.break`
  try {
    mkdirSync(breakPath)
  } catch (error) {
    if (errnoCode(error) !== "EEXIST") throw error
    const age = ageOf(breakPath, now)
    if (age !== undefined && age > Math.min(staleMs, BREAK_STALE_MS)) ignoringMissing(() => rmdirSync(breakPath))
    return
  }
  try {
    const current = readOwner(lockPath)
    if (current?.token === judged?.token) removeLockDirectory(lockPath)
  } finally {
    ignoringMissing(() => rmdirSync(breakPath))
  }
}

type Attempt = { readonly _tag: "Acquired"; readonly owner: LockOwner } | { readonly _tag: "Busy" }

const isBusy = (error: unknown) => {
  const code = errnoCode(error)
  return code === "EEXIST" || code === "ENOTEMPTY"
}

const tryAcquire = (lockPath: string, staleMs: number): Attempt => {
  const now = Date.now()
  try {
    mkdirSync(lockPath)
  } catch (error) {
    if (!isBusy(error)) throw error
    const owner = readOwner(lockPath)
    if (isStale(lockPath, owner, staleMs, now)) breakStaleLock(lockPath, owner, staleMs, now)
    return { _tag: "Busy" }
  }
  const owner: LockOwner = { pid: process.pid, host: localHost(), token: randomUUID(), acquiredAt: now, heartbeatAt: now }
  try {
    // Exclusive create: if this directory was broken and re-created by another writer meanwhile,
    // whoever writes the owner file first holds the lock and the other backs off.
    writeFileSync(join(lockPath, OWNER_FILE), JSON.stringify({ pid: owner.pid, host: owner.host, token: owner.token, acquiredAt: now }), {
      flag: "wx"
    })
  } catch (error) {
    if (isBusy(error) || errnoCode(error) === "ENOENT") return { _tag: "Busy" }
    throw error
  }
  return { _tag: "Acquired", owner }
}

const unavailable = (lockPath: string, reason: string) => new LockUnavailable({ lock: lockPath, reason })

/**
 * Takes the lock at `lockPath`, waiting with short randomised pauses while another live writer holds
 * it. Every failure is a `LockUnavailable`; nothing here throws into the caller's process.
 */
export const acquireLock = (lockPath: string, options: LockOptions = {}): Effect.Effect<HeldLock, LockUnavailable> => {
  const staleMs = options.staleMs ?? DEFAULT_STALE_MS
  const heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS
  const timeoutNanos = BigInt(Math.max(0, Math.round(options.timeoutMs ?? DEFAULT_TIMEOUT_MS))) * 1_000_000n
  // Monotonic time, read when the wait starts: the wall clock may jump, and a replay pins it to the event's instant.
  const elapsed = Clock.clockWith((clock) => clock.monotonicTimeNanos)
  const attempt = (deadline: bigint, pause: number): Effect.Effect<LockOwner, LockUnavailable> =>
    Effect.try({
      try: () => tryAcquire(lockPath, staleMs),
      catch: (error) => unavailable(lockPath, `cannot create the lock: ${String(error)}`)
    }).pipe(
      Effect.flatMap((result) => {
        if (result._tag === "Acquired") return Effect.succeed(result.owner)
        return Effect.flatMap(elapsed, (now) => {
          if (now <= deadline) return Effect.sleep(Math.random() * pause).pipe(Effect.andThen(attempt(deadline, Math.min(pause * 2, 8))))
          const owner = readOwner(lockPath)
          return Effect.fail(
            unavailable(lockPath, `timed out; held by ${owner === undefined ? "an unknown owner" : `pid ${owner.pid} on ${owner.host}`}`)
          )
        })
      })
    )
  return Effect.flatMap(elapsed, (start) => attempt(start + timeoutNanos, 2)).pipe(Effect.map((owner) => holdLock(lockPath, owner, heartbeatMs)))
}

const holdLock = (lockPath: string, owner: LockOwner, heartbeatMs: number): HeldLock => {
  let lost: string | undefined
  const stillOurs = () => {
    if (lost !== undefined) return false
    if (readOwnerToken(lockPath) !== owner.token) lost = "the lock was taken over while held (judged stale or removed)"
    return lost === undefined
  }
  const heartbeat = setInterval(() => {
    try {
      if (stillOurs()) {
        const beat = new Date()
        utimesSync(join(lockPath, OWNER_FILE), beat, beat)
      }
    } catch (error) {
      lost = `heartbeat failed: ${String(error)}`
    }
  }, heartbeatMs)
  heartbeat.unref()
  return {
    path: lockPath,
    token: owner.token,
    verify: Effect.suspend(() => (stillOurs() ? Effect.void : Effect.fail(unavailable(lockPath, lost ?? "lost")))),
    release: Effect.sync(() => {
      clearInterval(heartbeat)
      if (!stillOurs()) return
      try {
        removeLockDirectory(lockPath)
      } catch {
        // Left behind, the lock names a dead owner and the next writer breaks it as stale.
      }
    })
  }
}

/** A lock that excludes nothing: the test seam that proves the real lock is what prevents lost updates. */
export const noLock = (lockPath: string): HeldLock => ({
  path: lockPath,
  token: "unlocked",
  verify: Effect.void,
  release: Effect.void
})
