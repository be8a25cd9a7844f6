import { mkdirSync, readdirSync, writeFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { Context, Effect, Layer, Result, Schema, Semaphore } from "effect"
import type { DecideContext, Decision } from "./Domain.js"
import { fold } from "./Domain.js"
import { type GoalStoreError, InvalidInput, type MalformedState, StorageFailure } from "./Errors.js"
import type { FaultHooks } from "./Faults.js"
import type { Evidence, GoalState } from "./Goal.js"
import { SafeId } from "./Goal.js"
import { type LoadedState, loadFull, refresh } from "./internal/FileState.js"
import {
  appendDurably,
  appendLedgerLine,
  encodeLedgerLine,
  LEDGER_FILE,
  LEDGER_QUARANTINE_FILE,
  readLedgerRange,
  truncateLedger
} from "./Ledger.js"
import type { LedgerEvent } from "./LedgerEvent.js"
import { acquireLock, type HeldLock, type LockOptions, noLock } from "./Lock.js"
import { encodeSnapshot, writeSnapshotAtomically } from "./Snapshot.js"
import { decideContext, type GoalStoreBackend, goalStoreFromBackend, type GoalStoreShape } from "./GoalStoreBackend.js"

/** Where goals live unless told otherwise: `.armory/goals/` under the working directory. */
export const DEFAULT_ROOT = join(".armory", "goals")
/** The name the root aggregate (no `sessionId`) goes by in errors and listings. */
export const DEFAULT_SESSION = "default"

export interface GoalStoreOptions {
  /** The goals directory; default `.armory/goals` under the working directory. */
  readonly root?: string | undefined
  /** A separate aggregate under `sessions/<id>/`; without one the root itself holds the goal. */
  readonly sessionId?: string | undefined
  readonly lock?: LockOptions | undefined
  /** Test seam: fault injection at each durable write step. */
  readonly faults?: FaultHooks | undefined
  /** Test seam: `false` disables the session lock, to show what it prevents. Never in production. */
  readonly locking?: boolean | undefined
}

/** The goal store service: one session's goal, persisted under a root directory. */
export class GoalStore extends Context.Service<GoalStore, GoalStoreShape>()("@armory/goal-store/GoalStore") {
  /** The store over files under `root` (default `.armory/goals`), for one session. */
  static readonly layerFile = (options: GoalStoreOptions = {}): Layer.Layer<GoalStore, GoalStoreError> =>
    Layer.effect(GoalStore, makeFileGoalStore(options))
  /** The store of the root aggregate under `.armory/goals` in the working directory. */
  static readonly layer: Layer.Layer<GoalStore, GoalStoreError> = Layer.effect(GoalStore, Effect.suspend(() => makeFileGoalStore({})))
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
  return Result.succeed({ root, sessionId, directory: join(root, "sessions", sessionId) })
}

export const listSessions = (root: string): ReadonlyArray<string> => {
  try {
    return readdirSync(join(root, "sessions"), { withFileTypes: true })
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

/** The relative path an evidence record is filed under: per criterion, per attempt. */
export const evidencePath = (evidence: Pick<Evidence, "criterionId" | "attempt" | "id">): string =>
  join("evidence", evidence.criterionId, `attempt-${evidence.attempt}`, `${evidence.id}.json`)

const writeEvidenceRecord = (directory: string, evidence: Evidence) => {
  const file = join(directory, evidencePath(evidence))
  mkdirSync(join(file, ".."), { recursive: true })
  writeFileSync(file, `${JSON.stringify(evidence, null, 2)}\n`)
}

/**
 * Opens one session of the file store: reads and validates its files once (failing with
 * `MalformedState` and leaving them untouched when they cannot be trusted), then serves operations,
 * each a locked read-decide-append-snapshot cycle.
 */
export const makeFileGoalStore = Effect.fn("makeFileGoalStore")(function* (options: GoalStoreOptions) {
  const paths = yield* Effect.fromResult(sessionPaths(options))
  const { directory, sessionId, root } = paths
  const ledgerPath = join(directory, LEDGER_FILE)
  const faults: FaultHooks = options.faults ?? {}
  const locking = options.locking ?? true
  const writers = yield* Semaphore.make(1)

  const readState = (known: LoadedState | undefined): Effect.Effect<LoadedState, MalformedState | StorageFailure> =>
    Effect.try({
      try: () => (known === undefined ? loadFull(directory) : refresh(directory, known)),
      catch: storageFailure("read", directory, false)
    }).pipe(Effect.flatMap(Effect.fromResult))

  let loaded = yield* readState(undefined)
  let directoryExists = loaded.ino !== undefined

  const current = Effect.suspend(() => readState(loaded)).pipe(Effect.tap((next) => Effect.sync(() => (loaded = next))))

  const persistSnapshot = (state: LoadedState) =>
    Effect.try({
      try: () => writeSnapshotAtomically(directory, encodeSnapshot(state.state, state.committedBytes), faults),
      catch: storageFailure("snapshot write", join(directory, "goals.json"), true)
    })

  const quarantineTornTail = (state: LoadedState) =>
    Effect.try({
      try: () => {
        const torn = readLedgerRange(ledgerPath, state.committedBytes, state.tornBytes)
        appendDurably(join(directory, LEDGER_QUARANTINE_FILE), Buffer.concat([torn, Buffer.from("\n")]))
        truncateLedger(ledgerPath, state.committedBytes)
        return { ...state, tornBytes: 0 }
      },
      catch: storageFailure("torn tail quarantine", ledgerPath, false)
    })

  const append = (lock: HeldLock, state: LoadedState, event: LedgerEvent) =>
    Effect.gen(function* () {
      yield* lock.verify
      const line = encodeLedgerLine(event)
      const info = yield* Effect.try({
        try: () => appendLedgerLine(ledgerPath, line, state.committedBytes, faults),
        catch: storageFailure("ledger append", ledgerPath, false)
      })
      const next = fold([event], state.state)
      if (Result.isFailure(next)) return yield* Effect.die(new Error(`a decided event does not apply: ${next.failure.reason}`))
      const appended: LoadedState = {
        state: next.success,
        committedBytes: state.committedBytes + Buffer.byteLength(line),
        tornBytes: 0,
        ino: info.ino,
        snapshotStale: true
      }
      loaded = appended
      if (event.kind === "evidence_added") {
        const evidence = { ...event.evidence, at: event.at }
        yield* Effect.try({
          try: () => writeEvidenceRecord(directory, evidence),
          catch: storageFailure("evidence record write", join(directory, evidencePath(evidence)), true)
        })
      }
      yield* persistSnapshot(appended)
      loaded = { ...appended, snapshotStale: false }
      return appended.state
    })

  const withLock = <A, E>(use: (lock: HeldLock) => Effect.Effect<A, E>) =>
    Effect.acquireUseRelease(
      Effect.try({
        try: () => {
          if (!directoryExists) mkdirSync(directory, { recursive: true })
          directoryExists = true
        },
        catch: storageFailure("create directory", directory, false)
      }).pipe(Effect.andThen(locking ? acquireLock(join(directory, ".lock"), options.lock) : Effect.succeed(noLock(directory)))),
      use,
      (lock) =>
        Effect.try({ try: () => faults.beforeStep?.("unlock"), catch: () => undefined }).pipe(
          Effect.ignore,
          Effect.andThen(lock.release)
        )
    )

  /** The locked cycle every mutation goes through: refresh, decide, append, snapshot, unlock. */
  const transact = <A>(decide: (state: GoalState, context: DecideContext) => Decision<A>): Effect.Effect<A, GoalStoreError> =>
    writers.withPermit(
      withLock((lock) =>
        Effect.gen(function* () {
          let state = yield* current
          if (state.tornBytes > 0) state = yield* quarantineTornTail(state)
          const decision = decide(state.state, yield* decideContext(sessionId))
          if (decision._tag === "Commit") return decision.answer(yield* append(lock, state, decision.event))
          if (state.snapshotStale) {
            yield* persistSnapshot(state)
            loaded = { ...state, snapshotStale: false }
          }
          if (decision._tag === "Unchanged") return decision.value
          if (decision.record !== undefined) yield* append(lock, state, decision.record)
          return yield* Effect.fail(decision.error)
        })
      )
    )

  const backend: GoalStoreBackend = {
    sessionId,
    directory,
    transact,
    read: () => Effect.map(current, (state) => state.state),
    sessions: () =>
      Effect.try({ try: () => listSessions(root), catch: storageFailure("list sessions", join(root, "sessions"), false) })
  }
  return GoalStore.of(goalStoreFromBackend(backend))
})
