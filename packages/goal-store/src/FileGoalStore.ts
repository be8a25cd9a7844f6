import { mkdirSync, readdirSync } from "node:fs"
import { join, resolve } from "node:path"
import { Effect, Exit, Result, Schema, Scope } from "effect"
import type { DecideContext, Decision } from "./GoalRules.js"
import { fold } from "./GoalRules.js"
import { type GoalStoreError, InvalidInput, MalformedState, StorageFailure } from "./Errors.js"
import type { FaultHooks } from "./Faults.js"
import type { GoalState } from "./Goal.js"
import { SafeId, Text } from "./Goal.js"
import { evidencePath, writeEvidenceRecord } from "./internal/evidenceRecord.js"
import { type LoadedState, loadFullOffLoop, refresh, snapshotBehind, snapshotDue } from "./internal/FileState.js"
import type { OpenLedger } from "./internal/ledgerFile.js"
import { makeSessionLease } from "./internal/SessionLease.js"
import { NOT_REGULAR_REASON, NotRegularFile } from "./internal/regularFile.js"
import { appendDurably, encodeLedgerLine, LEDGER_FILE, LEDGER_QUARANTINE_FILE } from "./Ledger.js"
import type { LedgerEvent } from "./LedgerEvent.js"
import type { HeldLock, LockOptions } from "./Lock.js"
import { SESSIONS_DIRECTORY } from "./SessionFiles.js"
import { encodeSnapshot, SNAPSHOT_FILE, writeSnapshotAtomically } from "./Snapshot.js"
import { type GoalStoreClient, goalStoreClient } from "./GoalStoreClient.js"
import { decideContext, type GoalStoreAccess, type GoalStoreBackend, goalStoreFromBackend, type GoalStoreShape } from "./GoalStoreBackend.js"

const FLUSH_LOCK_TIMEOUT_MS = 1000
/** Where goals live unless told otherwise: `.armory/goals/` under the working directory. */
export const DEFAULT_ROOT = join(".armory", "goals")
/** The name the root aggregate (no `sessionId`) goes by in errors and listings. */
export const DEFAULT_SESSION = "default"

export interface GoalStoreOptions {
  /** The goals directory; default `.armory/goals` under the working directory. */
  readonly root?: string | undefined
  /** A separate aggregate under `sessions/<id>/`; without one the root itself holds the goal. */
  readonly sessionId?: string | undefined
  /**
   * Who operates this store (a person or a tool, as the ledger should name them). Only then is
   * `force` honoured — it lets a complete goal be changed, recorded with this name, and never opens
   * the gate. Stores a model reaches are opened without one.
   */
  readonly operator?: string | undefined
  readonly lock?: LockOptions | undefined
  /**
   * Commit each write's ledger fsync on the thread pool, so that an event loop serving other requests
   * keeps turning while it commits (the snapshot's and evidence records' fsyncs always do). A server
   * hosting the store wants it; a single writer does not: it adds the thread pool's round trip to every
   * write, which also holds the session lock longer for writers in other processes. Default `false`.
   */
  readonly offloadFsync?: boolean | undefined
  /** Test seam: fault injection at each durable write step. */
  readonly faults?: FaultHooks | undefined
  /** Test seam: `false` disables the session lock, to show what it prevents. Never in production. */
  readonly locking?: boolean | undefined
}

export interface SessionPaths {
  readonly root: string
  readonly sessionId: string
  readonly directory: string
}

const decodeSessionId = Schema.decodeUnknownResult(SafeId)

/** Resolves the root and session directory; a session id that could escape its directory is refused. */
export const sessionPaths = (options: Pick<GoalStoreOptions, "root" | "sessionId">): Result.Result<SessionPaths, InvalidInput> => {
  const root = resolve(options.root ?? DEFAULT_ROOT)
  if (options.sessionId === undefined) return Result.succeed({ root, sessionId: DEFAULT_SESSION, directory: root })
  const sessionId = options.sessionId
  if (Result.isFailure(decodeSessionId(sessionId))) {
    return Result.fail(new InvalidInput({ reason: `session id ${JSON.stringify(sessionId)} is not a safe path segment` }))
  }
  return Result.succeed({ root, sessionId, directory: join(root, SESSIONS_DIRECTORY, sessionId) })
}

const decodeOperator = Schema.decodeUnknownResult(Text)

/** The access a store is opened with; an operator must be named with some text (the ledger records it). */
export const storeAccess = (options: Pick<GoalStoreOptions, "operator">): Result.Result<GoalStoreAccess, InvalidInput> => {
  if (options.operator === undefined) return Result.succeed({})
  const operator = options.operator
  return Result.isSuccess(decodeOperator(operator))
    ? Result.succeed({ operator })
    : Result.fail(new InvalidInput({ reason: `operator ${JSON.stringify(operator)} names no one: give a non-blank name` }))
}

export const listSessions = (root: string): ReadonlyArray<string> => {
  try {
    return readdirSync(join(root, SESSIONS_DIRECTORY), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && Result.isSuccess(decodeSessionId(entry.name)))
      .map((entry) => entry.name)
      .toSorted()
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return []
    throw error
  }
}

const storageFailure = (operation: string, file: string, committed: boolean) => (error: unknown) =>
  new StorageFailure({ operation, file, reason: error instanceof Error ? error.message : String(error), committed })

/** A failed read: a session file that is not a regular file is malformed (and left alone); anything else is storage. */
const readFailure = (operation: string, file: string) => (error: unknown) =>
  error instanceof NotRegularFile ? new MalformedState({ file: error.file, reason: NOT_REGULAR_REASON }) : storageFailure(operation, file, false)(error)

export { evidencePath } from "./internal/evidenceRecord.js"

/** An answer made only of plain values (a checkpoint, an evidence entry, a blocker) shares no list with the state. */
const sharesNothing = (answer: unknown): boolean =>
  typeof answer !== "object" || answer === null || Object.values(answer).every((value) => typeof value !== "object" || value === null)

/** A session of the file store, and what its layer runs when it closes. */
interface FileSession {
  readonly store: GoalStoreShape
  /** Brings `goals.json` up to the ledger if this store wrote and left it behind; never fails. */
  readonly flush: Effect.Effect<void>
  /** Flushes, then stops what the session still has scheduled; the end of a scoped store. */
  readonly close: Effect.Effect<void>
}

const openFileSession = Effect.fn("makeFileGoalStore")(function* (options: GoalStoreOptions) {
  const paths = yield* Effect.fromResult(sessionPaths(options))
  const access = yield* Effect.fromResult(storeAccess(options))
  const { directory, sessionId, root } = paths
  const ledgerPath = join(directory, LEDGER_FILE)
  const faults: FaultHooks = options.faults ?? {}
  const locking = options.locking ?? true
  const offloadFsync = options.offloadFsync ?? false

  const readState = (read: () => Result.Result<LoadedState, MalformedState>): Effect.Effect<LoadedState, MalformedState | StorageFailure> =>
    Effect.try({ try: read, catch: readFailure("read", directory) }).pipe(Effect.flatMap(Effect.fromResult))

  // The open reads on the thread pool: a server opens a session per request, and a long ledger is megabytes.
  let loaded = yield* Effect.tryPromise({ try: () => loadFullOffLoop(directory), catch: readFailure("read", directory) }).pipe(
    Effect.flatMap(Effect.fromResult)
  )
  let directoryExists = loaded.ino !== undefined
  let wrote = false
  /**
   * The lists and criteria of `loaded` this store made since it last handed its state out: a write
   * folds its event into them in place (see `fold`) instead of copying the list it grows, which for
   * a long goal was most of a write's cost. Whatever a caller is given (a read, an answer that holds
   * a list) starts a new set, so nothing a caller holds ever changes.
   */
  let owned = new WeakSet<object>()
  const handedOut = <A>(value: A): A => {
    owned = new WeakSet()
    return value
  }
  const answered = <A>(answer: A): A => (sharesNothing(answer) ? answer : handedOut(answer))
  // Holds the lease's idle checks; a scoped store closes it, and a Promise client's ends with its process.
  const sessionScope = yield* Scope.make()
  const { withLease, end: endLease } = yield* makeSessionLease(
    {
      directory,
      locking,
      lock: options.lock,
      faults,
      prepare: Effect.try({
        try: () => {
          if (!directoryExists) mkdirSync(directory, { recursive: true })
          directoryExists = true
        },
        catch: storageFailure("create directory", directory, false)
      }),
      ledgerFailure: readFailure("ledger open", ledgerPath)
    },
    sessionScope
  )

  const current = Effect.suspend(() => readState(() => refresh(directory, loaded))).pipe(
    Effect.tap((next) => Effect.sync(() => (loaded = next)))
  )

  const persistSnapshot = (state: LoadedState) =>
    Effect.tryPromise({
      try: async (): Promise<LoadedState> => {
        const text = encodeSnapshot(state.state, state.committedBytes)
        await writeSnapshotAtomically(directory, text, faults)
        return { ...state, snapshot: { ledgerBytes: state.committedBytes, bytes: Buffer.byteLength(text) } }
      },
      catch: storageFailure("snapshot write", join(directory, SNAPSHOT_FILE), true)
    }).pipe(
      // Once started, a snapshot write finishes (or fails) under the lock it was started under.
      Effect.uninterruptible,
      Effect.tap((written) => Effect.sync(() => (loaded = written)))
    )

  const quarantineTornTail = (ledger: OpenLedger, state: LoadedState) =>
    Effect.try({
      try: () => {
        const torn = ledger.read(state.committedBytes, state.tornBytes)
        appendDurably(join(directory, LEDGER_QUARANTINE_FILE), Buffer.concat([torn, Buffer.from("\n")]))
        ledger.truncate(state.committedBytes)
        return { ...state, tornBytes: 0 }
      },
      catch: storageFailure("torn tail quarantine", ledgerPath, false)
    })

  const append = (lock: HeldLock, ledger: OpenLedger, state: LoadedState, event: LedgerEvent) =>
    Effect.gen(function* () {
      yield* lock.verify
      // The record is durable before the event that names it commits: a committed evidence_added
      // never points at a file a crash lost. A record whose event then fails to commit is written
      // again, under the same id, by the next evidence.
      if (event.kind === "evidence_added") {
        const evidence = { ...event.evidence, at: event.at }
        yield* Effect.tryPromise({
          try: () => writeEvidenceRecord(directory, evidence),
          catch: storageFailure("evidence record write", join(directory, evidencePath(evidence)), false)
        }).pipe(Effect.uninterruptible)
      }
      const line = Buffer.from(encodeLedgerLine(event), "utf8")
      // Uninterruptible: the lock must not be released while the line is written but not yet fsynced,
      // or another writer could build on an event that a failed fsync then cuts away.
      const appendFailure = storageFailure("ledger append", ledgerPath, false)
      const ino = yield* Effect.try({ try: () => ledger.append(line, state.committedBytes, faults, offloadFsync), catch: appendFailure }).pipe(
        Effect.flatMap((committed) => (typeof committed === "number" ? Effect.succeed(committed) : Effect.tryPromise({ try: () => committed, catch: appendFailure }))),
        Effect.uninterruptible
      )
      wrote = true
      const next = fold([event], state.state, owned)
      if (Result.isFailure(next)) {
        // The fold may have changed the state it started from: the next read loads the files again.
        owned = new WeakSet()
        loaded = { ...state, ino: undefined }
        return yield* Effect.die(new Error(`a decided event does not apply: ${next.failure.reason}`))
      }
      const appended: LoadedState = {
        state: next.success,
        committedBytes: state.committedBytes + line.length,
        tornBytes: 0,
        ino,
        snapshot: state.snapshot
      }
      loaded = appended
      if (snapshotDue(appended)) yield* persistSnapshot(appended)
      return appended.state
    })

  /** The ledger as it is now, read through the open file: what other writers appended is folded in. */
  const refreshed = (ledger: OpenLedger) =>
    readState(() => refresh(directory, loaded, ledger)).pipe(Effect.tap((next) => Effect.sync(() => (loaded = next))))

  /** The locked cycle every mutation goes through: refresh, decide, append, snapshot when due. */
  const transact = <A>(decide: (state: GoalState, context: DecideContext) => Decision<A>): Effect.Effect<A, GoalStoreError> =>
    withLease(({ lock, ledger }) =>
      Effect.gen(function* () {
        let state = yield* refreshed(ledger)
        if (state.tornBytes > 0) state = yield* quarantineTornTail(ledger, state)
        const decision = decide(state.state, yield* decideContext(sessionId))
        if (decision._tag === "Commit") return answered(decision.answer(yield* append(lock, ledger, state, decision.event)))
        // Nothing was committed, so a snapshot that cannot be written now must not fail the answer:
        // it may lag, and the next write or open tries again.
        if (snapshotDue(state)) state = yield* persistSnapshot(state).pipe(Effect.orElseSucceed(() => state))
        if (decision._tag === "Unchanged") return answered(decision.value)
        if (decision.record !== undefined) yield* append(lock, ledger, state, decision.record)
        return yield* Effect.fail(decision.error)
      })
    )

  // A layer's close waits at most this long for the lock: the snapshot may lag, so a busy lock is
  // no reason to hold up a shutdown.
  const flush = withLease(
    ({ ledger }) =>
      Effect.gen(function* () {
        const state = yield* refreshed(ledger)
        if (snapshotBehind(state)) yield* persistSnapshot(state)
      }),
    { ...options.lock, timeoutMs: FLUSH_LOCK_TIMEOUT_MS }
  ).pipe(
    Effect.when(Effect.sync(() => wrote && snapshotBehind(loaded))),
    Effect.ignore,
    Effect.andThen(endLease)
  )

  const backend: GoalStoreBackend = {
    sessionId,
    directory,
    transact,
    read: () => Effect.map(current, (state) => handedOut(state.state)),
    sessions: () =>
      Effect.try({ try: () => listSessions(root), catch: storageFailure("list sessions", join(root, SESSIONS_DIRECTORY), false) })
  }
  const session: FileSession = {
    store: goalStoreFromBackend(backend, access),
    flush,
    close: Effect.andThen(flush, Scope.close(sessionScope, Exit.void))
  }
  return session
})

/**
 * Opens one session of the file store: reads and validates its files once (failing with
 * `MalformedState` and leaving them untouched when they cannot be trusted), then serves operations,
 * each a locked read-decide-append cycle. `goals.json` is rewritten when due (see `SNAPSHOT_LAG_BYTES`);
 * `makeScopedFileGoalStore` and `GoalStore.layerFile` also bring it up to date when they close.
 */
export const makeFileGoalStore = (options: GoalStoreOptions): Effect.Effect<GoalStoreShape, GoalStoreError> =>
  Effect.map(openFileSession(options), (session) => session.store)

/** A session of the file store that, when its scope closes, brings `goals.json` up to date with what it wrote. */
export const makeScopedFileGoalStore = (options: GoalStoreOptions): Effect.Effect<GoalStoreShape, GoalStoreError, Scope.Scope> =>
  Effect.gen(function* () {
    const session = yield* openFileSession(options)
    yield* Effect.addFinalizer(() => session.close)
    return session.store
  })

/**
 * Opens a session of the file store (default root `.armory/goals`, the root aggregate) as a Promise
 * client, which brings `goals.json` up to date once it has been idle a moment after a write.
 */
export const openGoalStore = async (options: GoalStoreOptions = {}): Promise<GoalStoreClient> => {
  const session = await Effect.runPromise(openFileSession(options))
  return goalStoreClient(session.store, session.flush)
}
