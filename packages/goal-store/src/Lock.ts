import { randomUUID } from "node:crypto"
import { closeSync, constants, existsSync, fstatSync, futimesSync, mkdirSync, openSync, rmdirSync, rmSync, statSync, unlinkSync, writeSync } from "node:fs"
import { hostname } from "node:os"
import { Clock, Effect, Schedule, type Scope } from "effect"
import { LockUnavailable } from "./Errors.js"
import { openRegularFile, readRange } from "./internal/regularFile.js"

/**
 * The per-session writer lock: a file created exclusively (`O_CREAT | O_EXCL`, atomic) that holds the
 * owner's pid, host and a random token. A file rather than a directory holding an owner file: taking
 * and dropping it is one create and one unlink, and these metadata changes ride along in the journal
 * commit of the write's own fsync, so the lock costs a write little. The heartbeat is the file's mtime,
 * refreshed while the lock is held. A lock is stale when its owner is a dead process on this host or
 * its heartbeat is older than `staleMs`; a stale lock is broken under a second, short-lived `.break`
 * directory so two breakers never both win. A writer that finds the lock busy leaves a `.wait` file
 * next to it, which tells a holder that keeps the lock between writes to hand it over; the writer that
 * takes the lock next removes it.
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
  /** The lock file's mtime: when the holder last proved it is alive. */
  readonly heartbeatAt: number
}

export interface HeldLock {
  readonly path: string
  readonly token: string
  /** Fails when the lock is no longer this holder's (broken as stale, removed by hand). */
  readonly verify: Effect.Effect<void, LockUnavailable>
  /** Whether another writer has found the lock busy since this holder took it, so wants it handed over. */
  readonly contended: Effect.Effect<boolean>
  readonly release: Effect.Effect<void>
}

const DEFAULT_STALE_MS = 10_000
const DEFAULT_HEARTBEAT_MS = 2_000
const DEFAULT_TIMEOUT_MS = 30_000
/**
 * A breaker holds `.break`, and a new lock is empty, only between two system calls; one older than
 * this belongs to a process that died there (a killed writer may die while breaking the lock of an
 * earlier killed writer).
 */
const BREAK_STALE_MS = 1_000
const OWNERLESS_STALE_MS = BREAK_STALE_MS
/**
 * The longest pause between a waiter's tries. A holder that hands the lock over stays away at least
 * this long (`HAND_OVER_MS`), so a waiter's next try falls in that window.
 */
const MAX_PAUSE_MS = 2
/** How long a holder that let go because another writer asked waits before it tries to take the lock again. */
export const HAND_OVER_MS = MAX_PAUSE_MS

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

/** An owner record is a few dozen bytes; a lock file longer than this was not written by a writer. */
const MAX_OWNER_BYTES = 4096

/**
 * The lock's owner, from at most `MAX_OWNER_BYTES` of a regular file; `undefined` for anything else
 * found at the lock's path (a FIFO there would block a plain read forever), which then goes stale
 * by age like a lock whose writer died before filling it in.
 */
const readOwner = (lockPath: string): LockOwner | undefined => {
  try {
    const fd = openRegularFile(lockPath, constants.O_RDONLY)
    if (fd === undefined) return undefined
    try {
      const owner = parseOwner(Buffer.from(readRange(fd, 0, MAX_OWNER_BYTES)).toString("utf8"))
      return owner === undefined ? undefined : { ...owner, heartbeatAt: fstatSync(fd).mtimeMs }
    } finally {
      closeSync(fd)
    }
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
    // A writer fills in the owner right after creating the file; an ownerless lock older than a moment
    // belongs to a writer that died in between.
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
    // Forced and recursive: a lock left as a directory by an earlier layout is broken the same way.
    if (readOwner(lockPath)?.token === judged?.token) rmSync(lockPath, { recursive: true, force: true })
  } finally {
    ignoringMissing(() => rmdirSync(breakPath))
  }
}

/** A lock this process took: its owner record, and the lock file kept open for as long as it is held. */
interface Taken {
  readonly owner: LockOwner
  readonly fd: number
  readonly ino: number
}

type Attempt = { readonly _tag: "Acquired"; readonly taken: Taken } | { readonly _tag: "Busy" }

const isBusy = (error: unknown) => errnoCode(error) === "EEXIST"

const waitPathOf = (lockPath: string) => `${lockPath}.wait`

/** Asks the holder to hand the lock over: creates the wait file if it is not there (an open changes nothing when it is). */
const announceWaiting = (lockPath: string) => {
  // Non-blocking and regular only: a FIFO put at the wait file's path fails here instead of hanging.
  const fd = openRegularFile(waitPathOf(lockPath), constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND)
  if (fd !== undefined) closeSync(fd)
}

/** `waited`: this writer found the lock busy before and asked for it, so the wait file is now its to remove. */
const tryAcquire = (lockPath: string, staleMs: number, waited: boolean): Attempt => {
  const now = Date.now()
  let fd: number
  try {
    fd = openSync(lockPath, "wx")
  } catch (error) {
    if (!isBusy(error)) throw error
    announceWaiting(lockPath)
    const owner = readOwner(lockPath)
    if (isStale(lockPath, owner, staleMs, now)) breakStaleLock(lockPath, owner, staleMs, now)
    return { _tag: "Busy" }
  }
  const owner: LockOwner = { pid: process.pid, host: localHost(), token: randomUUID(), acquiredAt: now, heartbeatAt: now }
  try {
    writeSync(fd, JSON.stringify({ pid: owner.pid, host: owner.host, token: owner.token, acquiredAt: now }))
    // A waiter got the lock; another one still waiting asks again on its next try.
    if (waited) ignoringMissing(() => unlinkSync(waitPathOf(lockPath)))
    return { _tag: "Acquired", taken: { owner, fd, ino: fstatSync(fd).ino } }
  } catch (error) {
    closeSync(fd)
    ignoringMissing(() => unlinkSync(lockPath))
    throw error
  }
}

const unavailable = (lockPath: string, reason: string) => new LockUnavailable({ lock: lockPath, reason })

/**
 * Takes the lock at `lockPath`, waiting with short randomised pauses while another live writer holds
 * it, and holds it for the life of the current scope: its heartbeat is a fiber of that scope, and
 * closing the scope stops the heartbeat and releases the lock (as `release` does earlier). Every
 * failure is a `LockUnavailable`; nothing here throws into the caller's process.
 */
export const acquireLock = (lockPath: string, options: LockOptions = {}): Effect.Effect<HeldLock, LockUnavailable, Scope.Scope> => {
  const staleMs = options.staleMs ?? DEFAULT_STALE_MS
  const heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS
  const timeoutNanos = BigInt(Math.max(0, Math.round(options.timeoutMs ?? DEFAULT_TIMEOUT_MS))) * 1_000_000n
  // Monotonic time, read when the wait starts: the wall clock may jump, and a replay pins it to the event's instant.
  const elapsed = Clock.clockWith((clock) => clock.monotonicTimeNanos)
  const attempt = (deadline: bigint, pause: number, waited: boolean): Effect.Effect<Taken, LockUnavailable> =>
    Effect.try({
      try: () => tryAcquire(lockPath, staleMs, waited),
      catch: (error) => unavailable(lockPath, `cannot create the lock: ${String(error)}`)
    }).pipe(
      Effect.flatMap((result) => {
        if (result._tag === "Acquired") return Effect.succeed(result.taken)
        return Effect.flatMap(elapsed, (now) => {
          if (now <= deadline) {
            return Effect.sleep(Math.random() * pause).pipe(Effect.andThen(attempt(deadline, Math.min(pause * 2, MAX_PAUSE_MS), true)))
          }
          const owner = readOwner(lockPath)
          return Effect.fail(
            unavailable(lockPath, `timed out; held by ${owner === undefined ? "an unknown owner" : `pid ${owner.pid} on ${owner.host}`}`)
          )
        })
      })
    )
  return Effect.gen(function* () {
    const holding = yield* Effect.acquireRelease(
      Effect.flatMap(elapsed, (start) => attempt(start + timeoutNanos, 1, false)).pipe(Effect.map((taken) => holdLock(lockPath, taken))),
      (held) => held.release
    )
    yield* Effect.forkScoped(Effect.repeat(holding.beat, Schedule.spaced(heartbeatMs)))
    return holding
  })
}

/** A held lock, with the heartbeat its scope repeats. */
interface Holding extends HeldLock {
  /** Refreshes the lock file's mtime while the lock is still this holder's; notes a failure as the lock lost. */
  readonly beat: Effect.Effect<void>
}

/**
 * The lock while held. Its file stays open, so its inode cannot be reused meanwhile: the lock is
 * still this holder's exactly when the path still names that inode, which is one `stat` to check.
 */
const holdLock = (lockPath: string, taken: Taken): Holding => {
  let lost: string | undefined
  let released = false
  const waitPath = waitPathOf(lockPath)
  const stillOurs = () => {
    if (lost !== undefined) return false
    if (statSync(lockPath, { throwIfNoEntry: false })?.ino !== taken.ino) lost = "the lock was taken over while held (judged stale or removed)"
    return lost === undefined
  }
  return {
    path: lockPath,
    token: taken.owner.token,
    beat: Effect.sync(() => {
      if (released) return
      try {
        if (stillOurs()) {
          const beat = new Date()
          futimesSync(taken.fd, beat, beat)
        }
      } catch (error) {
        lost = `heartbeat failed: ${String(error)}`
      }
    }),
    verify: Effect.suspend(() => (stillOurs() ? Effect.void : Effect.fail(unavailable(lockPath, lost ?? "lost")))),
    contended: Effect.sync(() => existsSync(waitPath)),
    release: Effect.sync(() => {
      if (released) return
      released = true
      try {
        // The token too: a lock file rewritten in place by hand names someone else now.
        if (stillOurs() && readOwner(lockPath)?.token === taken.owner.token) ignoringMissing(() => unlinkSync(lockPath))
      } catch {
        // Left behind, the lock names a dead owner and the next writer breaks it as stale.
      }
      try {
        closeSync(taken.fd)
      } catch {
        // A descriptor that fails to close is gone all the same.
      }
    })
  }
}

/** A lock that excludes nothing: the test seam that proves the real lock is what prevents lost updates. */
export const noLock = (lockPath: string): HeldLock => ({
  path: lockPath,
  token: "unlocked",
  verify: Effect.void,
  contended: Effect.succeed(false),
  release: Effect.void
})
