import { randomUUID } from "node:crypto"
import {
  DEFAULT_SESSION,
  GoalStore,
  type GoalStoreError,
  type GoalStoreShape,
  type ImportReport,
  InvalidInput,
  type LedgerEvent,
  LockUnavailable,
  MalformedState,
  SafeId,
  StorageFailure
} from "@armory/goal-store"
import {
  canonicalJson,
  type DecideContext,
  type Decision,
  decideContext,
  decodeLedgerLine,
  emptyState,
  encodeLedgerLine,
  fold,
  type GoalStoreBackend,
  goalStoreFromBackend,
  type GoalState,
  replayLedger,
  storeAccess
} from "@armory/goal-store/backend"
import { Cause, Data, Effect, Layer, Result, Schedule, Schema, Semaphore } from "effect"
import { SqlError } from "effect/sql"
import { type EventRow, decodeEventRows, decodeSnapshotRow, unstorableReason } from "./internal/ledgerRows.js"
import { connectionLost, describeSqlError, inTransaction, isSequenceConflict, sqlErrorIn } from "./internal/sqlFailure.js"
import type { PgFaultHooks, PgWriteStep } from "./PgFaults.js"
import { PgGoalDatabase, type PgGoalDatabaseOptions, pgSessionDirectory } from "./PgGoalDatabase.js"

/** How often a session's snapshot row is rewritten: at its first event and every this many events after. */
export const DEFAULT_SNAPSHOT_EVERY = 64

export interface PgGoalStoreOptions {
  /** A separate aggregate; without one the store holds the default session (stored as `""`, never listed). */
  readonly sessionId?: string | undefined
  /** Rewrite the snapshot every this many events (default 64); readers fold the events after it. */
  readonly snapshotEvery?: number | undefined
  /** How many times a write may lose the race for its sequence number before `LockUnavailable` (default 200). */
  readonly maxConflicts?: number | undefined
  /** How many times a write or read is retried on a new connection after the old one was lost (default 3). */
  readonly maxReconnects?: number | undefined
  /** Who operates this store; only then is `force` honoured (see the file store's `GoalStoreOptions.operator`). */
  readonly operator?: string | undefined
  /** Test seam: fault injection at each step of the write transaction. */
  readonly faults?: PgFaultHooks | undefined
}

/** The backend of one session, plus the committed ledger itself (what `armory goal export` prints). */
export interface PgGoalStoreBackend extends GoalStoreBackend {
  readonly events: () => Effect.Effect<ReadonlyArray<LedgerEvent>, GoalStoreError>
  /** Writes a whole ledger into this empty session in one transaction: all of it or nothing. */
  readonly importLedger: (events: ReadonlyArray<LedgerEvent>) => Effect.Effect<ImportReport, GoalStoreError>
}

const decodeSessionId = Schema.decodeUnknownResult(SafeId)

/** The event a write inserts, with the token that tells its row apart from any other writer's. */
interface Pending {
  readonly event: LedgerEvent
  readonly payload: string
  readonly writer: string
  readonly next: GoalState
}

interface Outcome<A> {
  readonly decision: Decision<A>
  readonly next: GoalState
}

type Attempt<A> =
  | { readonly _tag: "Done"; readonly outcome: Outcome<A> }
  | { readonly _tag: "Retry"; readonly conflict: boolean; readonly error: SqlError.SqlError }

/** The probe's insert went through: no row held the sequence number, so the lost COMMIT did not land. */
class SequenceFree extends Data.TaggedError("SequenceFree") {}

type CommitOutcome =
  | { readonly _tag: "Committed" }
  | { readonly _tag: "Absent" }
  | { readonly _tag: "Unknown"; readonly error: SqlError.SqlError }

const recordedBy = <A>(decision: Decision<A>): LedgerEvent | undefined =>
  decision._tag === "Commit" ? decision.event : decision._tag === "Refuse" ? decision.record : undefined

const answer = <A>({ decision, next }: Outcome<A>): Effect.Effect<A, GoalStoreError> =>
  decision._tag === "Commit"
    ? Effect.sync(() => decision.answer(next))
    : decision._tag === "Unchanged"
      ? Effect.succeed(decision.value)
      : Effect.fail(decision.error)

/** The pause before a statement runs again on a new connection: 100 ms, 200 ms, 400 ms, … jittered. */
const RECONNECT_SCHEDULE = Schedule.exponential("100 millis").pipe(Schedule.jittered)

/** How long a store that lost a race keeps queueing its writes before it tries optimistically again. */
const CONTENDED_MS = 1000

/** Full-jitter exponential backoff, in milliseconds. */
const jitter = (attempt: number, baseMs: number, capMs: number): number =>
  Math.random() * Math.min(capMs, baseMs * 2 ** Math.min(attempt, 16))

/** What is left of a cause without typed failures: its defects and interruptions. */
const defectsOf = (cause: Cause.Cause<unknown>): Cause.Cause<never> =>
  Cause.fromReasons<never>(cause.reasons.filter((reason) => Cause.isDieReason(reason) || Cause.isInterruptReason(reason)))

/** The first typed failure of a cause that is not the SQL client's own. */
const storeErrorIn = (cause: Cause.Cause<GoalStoreError | SqlError.SqlError>): GoalStoreError | undefined => {
  for (const reason of cause.reasons) {
    if (Cause.isFailReason(reason) && reason.error._tag !== "SqlError") return reason.error
  }
  return undefined
}

/**
 * One session of the PostgreSQL store. Every mutation is one transaction: read the events after the
 * last known sequence, fold them, decide, insert the event at `seq = last + 1` (and the snapshot when
 * due), commit. The primary key `(session_id, seq)` is the concurrency control: a writer that lost
 * the race gets a unique violation, rolls back and decides again against the newer state, after a
 * jittered backoff. A COMMIT whose answer was lost (the connection dropped) is settled by reading
 * that sequence number back before anything is reported.
 */
export const makePgGoalStoreBackend = Effect.fn("makePgGoalStoreBackend")(function* (
  options: PgGoalStoreOptions = {}
): Effect.fn.Return<PgGoalStoreBackend, GoalStoreError, PgGoalDatabase> {
  const database = yield* PgGoalDatabase
  const { sql } = database
  if (options.sessionId !== undefined && Result.isFailure(decodeSessionId(options.sessionId))) {
    return yield* new InvalidInput({ reason: `session id ${JSON.stringify(options.sessionId)} is not a safe path segment` })
  }
  const sessionId = options.sessionId ?? DEFAULT_SESSION
  const key = options.sessionId ?? ""
  const snapshotEvery = options.snapshotEvery ?? DEFAULT_SNAPSHOT_EVERY
  if (!Number.isSafeInteger(snapshotEvery) || snapshotEvery < 1) {
    return yield* new InvalidInput({ reason: `snapshotEvery must be a positive integer, got ${snapshotEvery}` })
  }
  const maxConflicts = options.maxConflicts ?? 200
  const maxReconnects = options.maxReconnects ?? 3
  const faults = options.faults ?? {}
  const events = sql(database.tables.events)
  const snapshots = sql(database.tables.snapshots)
  const eventsFile = `${database.location}#${database.tables.events}`
  const snapshotsFile = `${database.location}#${database.tables.snapshots}`
  const directory = pgSessionDirectory(database, sessionId)
  // Writers of this process take turns, so they do not race each other for sequence numbers.
  const writers = yield* Semaphore.make(1)

  const failure = (operation: string, committed: boolean) => (error: SqlError.SqlError) =>
    new StorageFailure({ operation, file: eventsFile, reason: describeSqlError(error), committed })

  const rowsAfter = (seq: number) =>
    sql<EventRow>`SELECT seq, payload::text AS payload FROM ${events} WHERE session_id = ${key} AND seq > ${seq} ORDER BY seq`

  /** Writers of one session that lost a race wait their turn on this lock instead of colliding again. */
  const queueLock = `armory-goal-store:${database.schema}:${key}`
  const queuedRead = sql(`${database.schema}.goal_events_after_queued`)
  const rowsAfterQueued = (seq: number) => sql<EventRow>`SELECT seq, payload FROM ${queuedRead}(${key}, ${seq}, ${queueLock})`

  /** `from` brought up to date with the committed events after it. */
  const readSince = (from: GoalState, queued = false) =>
    Effect.flatMap(queued ? rowsAfterQueued(from.seq) : rowsAfter(from.seq), (rows) => {
      if (rows.length === 0) return Effect.succeed(from)
      const decoded = decodeEventRows(rows, eventsFile)
      if (Result.isFailure(decoded)) return Effect.fail(decoded.failure)
      const folded = fold(decoded.success, from)
      return Result.isSuccess(folded)
        ? Effect.succeed(folded.success)
        : Effect.fail(new MalformedState({ file: eventsFile, line: folded.failure.seq, reason: folded.failure.reason }))
    })

  const snapshotRow = sql<{ readonly seq: number; readonly state: unknown }>`SELECT seq, state FROM ${snapshots} WHERE session_id = ${key}`

  const readSnapshot = Effect.flatMap(snapshotRow, ([row]) =>
    row === undefined ? Effect.succeed(emptyState) : Effect.fromResult(decodeSnapshotRow(row, snapshotsFile))
  )

  /**
   * The whole ledger, folded, and checked against the snapshot row: readers trust that row, so an
   * export is where a snapshot that is not the fold of its events is caught.
   */
  const readLedger = Effect.gen(function* () {
    const rows = yield* rowsAfter(0)
    const decoded = yield* Effect.fromResult(decodeEventRows(rows, eventsFile))
    const [row] = yield* snapshotRow
    const snapshot = row === undefined ? undefined : yield* Effect.fromResult(decodeSnapshotRow(row, snapshotsFile))
    const folded = fold(decoded.slice(0, snapshot?.seq ?? decoded.length))
    if (Result.isFailure(folded)) {
      return yield* new MalformedState({ file: eventsFile, line: folded.failure.seq, reason: folded.failure.reason })
    }
    if (row !== undefined && (folded.success.seq !== row.seq || canonicalJson(folded.success) !== canonicalJson(row.state))) {
      return yield* new MalformedState({
        file: snapshotsFile,
        line: row.seq,
        reason: `the snapshot of sequence ${row.seq} is not the fold of the events up to it`
      })
    }
    const rest = fold(decoded.slice(folded.success.seq), folded.success)
    if (Result.isFailure(rest)) {
      return yield* new MalformedState({ file: eventsFile, line: rest.failure.seq, reason: rest.failure.reason })
    }
    return decoded
  })

  /** Reads retry on a new connection when theirs was lost; they change nothing, so that is always safe. */
  const reading = <A, E extends GoalStoreError = never>(
    read: Effect.Effect<A, E | SqlError.SqlError>
  ): Effect.Effect<A, E | StorageFailure> =>
    read.pipe(
      Effect.retry({
        while: (error) => SqlError.isSqlError(error) && connectionLost(error),
        times: maxReconnects,
        schedule: RECONNECT_SCHEDULE
      }),
      Effect.catchIf(SqlError.isSqlError, (error) => Effect.fail(failure("read", false)(error)))
    )

  let cached: GoalState = yield* reading(Effect.flatMap(readSnapshot, readSince))

  const step = (name: PgWriteStep, seq: number) =>
    faults.beforeStep === undefined
      ? Effect.void
      : Effect.tryPromise({
          try: async () => faults.beforeStep?.(name, seq),
          catch: (error) =>
            new StorageFailure({
              operation: name,
              file: eventsFile,
              reason: error instanceof Error ? error.message : String(error),
              committed: false
            })
        })

  const insertEvent = (pending: Pick<Pending, "event" | "payload" | "writer">) =>
    sql`INSERT INTO ${events} (session_id, seq, kind, payload, writer)
      VALUES (${key}, ${pending.event.seq}, ${pending.event.kind}, ${pending.payload}::jsonb, ${pending.writer}::uuid)`

  const writeSnapshot = (state: GoalState) =>
    sql`INSERT INTO ${snapshots} (session_id, seq, state) VALUES (${key}, ${state.seq}, ${JSON.stringify(state)}::jsonb)
      ON CONFLICT (session_id) DO UPDATE SET seq = EXCLUDED.seq, state = EXCLUDED.state, updated_at = now()
      WHERE ${snapshots}.seq < EXCLUDED.seq`

  /**
   * Settles a COMMIT whose answer was lost. The probe inserts the same sequence number: a unique
   * index waits for a transaction still in flight on it, so the answer is final — the insert goes
   * through (and is rolled back) when no row holds the number, or the row is read and its writer
   * token compared. Retried on new connections for a few seconds before the outcome is called unknown.
   */
  const settleCommit = (pending: Pending): Effect.Effect<CommitOutcome, GoalStoreError> => {
    const probe = inTransaction(
      sql,
      Effect.gen(function* () {
        const free = yield* sql`INSERT INTO ${events} (session_id, seq, kind, payload, writer)
          VALUES (${key}, ${pending.event.seq}, ${pending.event.kind}, ${pending.payload}::jsonb, ${randomUUID()}::uuid)
          ON CONFLICT (session_id, seq) DO NOTHING RETURNING seq`
        if (free.length > 0) return yield* new SequenceFree()
        const [row] = yield* sql<{ readonly writer: string; readonly payload: string }>`SELECT writer::text AS writer, payload::text AS payload
          FROM ${events} WHERE session_id = ${key} AND seq = ${pending.event.seq}`
        return row
      })
    )
    return probe.pipe(
      Effect.flatMap((row): Effect.Effect<CommitOutcome, MalformedState> => {
        if (row === undefined || row.writer !== pending.writer) return Effect.succeed({ _tag: "Absent" })
        const stored = decodeLedgerLine(row.payload)
        return Result.isSuccess(stored) && encodeLedgerLine(stored.success) === encodeLedgerLine(pending.event)
          ? Effect.succeed({ _tag: "Committed" })
          : Effect.fail(
              new MalformedState({ file: eventsFile, line: pending.event.seq, reason: "the committed row does not hold the event its writer wrote" })
            )
      }),
      Effect.catchTag("SequenceFree", () => Effect.succeed<CommitOutcome>({ _tag: "Absent" })),
      Effect.retry({ while: (error) => error._tag === "SqlError", times: 4, schedule: RECONNECT_SCHEDULE }),
      Effect.catchTag("SqlError", (error) => Effect.succeed<CommitOutcome>({ _tag: "Unknown", error }))
    )
  }

  /** Until when this store queues from the first attempt: contention seen lately is likely to go on. */
  let queueUntil = 0

  /**
   * One read-decide-insert-commit transaction, classified: done, or worth another try. A `queued`
   * attempt first takes the session's advisory lock, so writers that already lost a race form a
   * queue; it orders them and saves their wasted work, while the primary key alone keeps every write
   * correct (a writer that does not queue still loses cleanly and retries).
   */
  const attempt = <A>(
    decide: (state: GoalState, context: DecideContext) => Decision<A>,
    queued: boolean
  ): Effect.Effect<Attempt<A>, GoalStoreError> =>
    Effect.suspend(() => {
      let pending: Pending | undefined
      let decided: Outcome<A> | undefined
      const body = Effect.gen(function* () {
        const state = yield* readSince(cached, queued)
        // Only committed events were read, so the cache is right whatever becomes of this transaction.
        cached = state
        const decision = decide(state, yield* decideContext(sessionId))
        const event = recordedBy(decision)
        if (event === undefined) {
          decided = { decision, next: state }
          return decided
        }
        const unstorable = unstorableReason(event)
        if (unstorable !== undefined) return yield* new InvalidInput({ reason: unstorable })
        const next = fold([event], state)
        if (Result.isFailure(next)) return yield* Effect.die(new Error(`a decided event does not apply: ${next.failure.reason}`))
        pending = { event, payload: encodeLedgerLine(event).trimEnd(), writer: randomUUID(), next: next.success }
        yield* step("event-insert", event.seq)
        yield* insertEvent(pending)
        if (event.seq === 1 || event.seq % snapshotEvery === 0) {
          yield* step("snapshot-write", event.seq)
          yield* writeSnapshot(next.success)
        }
        yield* step("commit", event.seq)
        decided = { decision, next: next.success }
        return decided
      })
      return inTransaction(sql, body).pipe(
        Effect.map((outcome): Attempt<A> => ({ _tag: "Done", outcome })),
        Effect.catchCause((cause) =>
          Effect.gen(function* (): Effect.fn.Return<Attempt<A>, GoalStoreError> {
            const storeError = storeErrorIn(cause)
            if (storeError !== undefined) return yield* Effect.fail(storeError)
            const error = sqlErrorIn(cause)
            if (error === undefined) return yield* Effect.failCause(defectsOf(cause))
            const retry: Attempt<A> = { _tag: "Retry", conflict: false, error }
            if (decided === undefined) {
              // The transaction failed before COMMIT was sent, so the server rolled it back.
              if (pending !== undefined && isSequenceConflict(error)) return { ...retry, conflict: true }
              if (connectionLost(error)) return retry
              return yield* failure(pending === undefined ? "read" : "append", false)(error)
            }
            if (pending === undefined) return connectionLost(error) ? retry : yield* failure("commit", false)(error)
            const settled = yield* settleCommit(pending)
            if (settled._tag === "Committed") return { _tag: "Done", outcome: decided }
            if (settled._tag === "Absent") return connectionLost(error) ? retry : yield* failure("commit", false)(error)
            return yield* new StorageFailure({
              operation: "commit",
              file: eventsFile,
              committed: false,
              reason:
                `the outcome is unknown: COMMIT of seq ${pending.event.seq} failed (${describeSqlError(error)}) and the event ` +
                `could not be read back (${describeSqlError(settled.error)}); status() shows whether it landed`
            })
          })
        )
      )
    })

  const transact = <A>(decide: (state: GoalState, context: DecideContext) => Decision<A>): Effect.Effect<A, GoalStoreError> =>
    writers.withPermit(
      Effect.gen(function* () {
        let conflicts = 0
        let reconnects = 0
        for (;;) {
          const result = yield* attempt(decide, conflicts > 0 || performance.now() < queueUntil)
          if (result._tag === "Done") {
            if (result.outcome.next.seq > cached.seq) cached = result.outcome.next
            return yield* answer(result.outcome)
          }
          if (result.conflict) {
            conflicts += 1
            queueUntil = performance.now() + CONTENDED_MS
            if (conflicts >= maxConflicts) {
              return yield* new LockUnavailable({
                lock: `${eventsFile} session ${sessionId}`,
                reason: `lost the race for the next sequence number to other writers ${conflicts} times`
              })
            }
            yield* Effect.sleep(jitter(conflicts, 1, 50))
          } else {
            reconnects += 1
            if (reconnects > maxReconnects) return yield* failure("append", false)(result.error)
            yield* Effect.sleep(100 * 2 ** (reconnects - 1) * (0.5 + Math.random()))
          }
        }
      })
    )

  /**
   * The ledger is checked up front — every event must be what the domain decides at that point
   * (`replayLedger`) and storable as jsonb — then written in one transaction that finds the session
   * empty, inserts every row and the snapshot of the final state. A writer that slips in between
   * takes a sequence number first, so an insert fails on the primary key and the whole import rolls
   * back; run again, it finds the session holding that writer's goal.
   */
  const importLedger = (ledger: ReadonlyArray<LedgerEvent>): Effect.Effect<ImportReport, GoalStoreError> =>
    Effect.gen(function* () {
      const replayed = replayLedger(ledger, sessionId)
      if (Result.isFailure(replayed)) {
        const index = ledger.findIndex((event) => event.seq === replayed.failure.seq)
        return yield* new InvalidInput({
          reason: `ledger line ${Math.max(index, 0) + 1} (seq ${replayed.failure.seq}) does not replay: ${replayed.failure.reason}`
        })
      }
      for (const [index, event] of ledger.entries()) {
        const unstorable = unstorableReason(event)
        if (unstorable !== undefined) return yield* new InvalidInput({ reason: `ledger line ${index + 1} (seq ${event.seq}): ${unstorable}` })
      }
      const final = replayed.success.at(-1)?.after
      const writer = randomUUID()
      const write = inTransaction(
        sql,
        Effect.gen(function* () {
          const current = yield* Effect.flatMap(readSnapshot, (state) => readSince(state))
          if (current.seq > 0) {
            const held = current.goal === null ? `${current.seq} events` : `goal ${current.goal.id}`
            return yield* new InvalidInput({
              reason: `session ${sessionId} already holds ${held}; a ledger is imported into an empty session only`
            })
          }
          for (const event of ledger) {
            yield* insertEvent({ event, payload: encodeLedgerLine(event).trimEnd(), writer })
          }
          if (final !== undefined) yield* writeSnapshot(final)
        })
      )
      yield* write.pipe(
        Effect.retry({
          while: (error) => error._tag === "SqlError" && (isSequenceConflict(error) || connectionLost(error)),
          times: maxReconnects,
          schedule: RECONNECT_SCHEDULE
        }),
        Effect.catchTag("SqlError", (error) => Effect.fail(failure("import", false)(error)))
      )
      if (final !== undefined && final.seq > cached.seq) cached = final
      return { sessionId, events: ledger.length, seq: final?.seq ?? 0 }
    })

  return {
    sessionId,
    directory,
    transact,
    read: () =>
      reading(Effect.suspend(() => readSince(cached))).pipe(
        Effect.tap((state) =>
          Effect.sync(() => {
            if (state.seq > cached.seq) cached = state
          })
        )
      ),
    sessions: () =>
      reading<ReadonlyArray<string>>(
        sql<{ readonly session_id: string }>`SELECT session_id FROM ${snapshots} WHERE session_id <> ''`.pipe(
          Effect.map((rows) => rows.map((row) => row.session_id).toSorted())
        )
      ),
    events: () => reading(readLedger),
    importLedger
  }
})

/** One session of the PostgreSQL store as the `GoalStore` service, on a shared {@link PgGoalDatabase}. */
export const makePgGoalStore = Effect.fn("makePgGoalStore")(function* (
  options: PgGoalStoreOptions = {}
): Effect.fn.Return<GoalStoreShape, GoalStoreError, PgGoalDatabase> {
  return GoalStore.of(yield* pgGoalStoreOver(yield* makePgGoalStoreBackend(options), options))
})

/** The goal store over a session's backend, with the access its options grant (an operator, or none). */
export const pgGoalStoreOver = (backend: GoalStoreBackend, options: Pick<PgGoalStoreOptions, "operator">): Effect.Effect<GoalStoreShape, InvalidInput> =>
  Effect.map(Effect.fromResult(storeAccess(options)), (access) => goalStoreFromBackend(backend, access))

/** The committed events of one session, in order: what `armory goal export --store pg` prints. */
export const exportPgLedger = Effect.fn("exportPgLedger")(function* (
  options: { readonly sessionId?: string | undefined } = {}
): Effect.fn.Return<ReadonlyArray<LedgerEvent>, GoalStoreError, PgGoalDatabase> {
  const backend = yield* makePgGoalStoreBackend(options)
  return yield* backend.events()
})

/**
 * Imports a ledger into an empty session atomically: checked through the domain and for what jsonb
 * can hold before anything is written, then written in one transaction, so a refusal writes nothing.
 */
export const importPgLedger = Effect.fn("importPgLedger")(function* (
  events: ReadonlyArray<LedgerEvent>,
  options: { readonly sessionId?: string | undefined } = {}
): Effect.fn.Return<ImportReport, GoalStoreError, PgGoalDatabase> {
  const backend = yield* makePgGoalStoreBackend(options)
  return yield* backend.importLedger(events)
})

/** The `GoalStore` service over PostgreSQL. */
export const PgGoalStore = {
  /** A session with its own pool, closed when the layer is released. */
  layer: (options: PgGoalDatabaseOptions & PgGoalStoreOptions): Layer.Layer<GoalStore, GoalStoreError> =>
    Layer.effect(GoalStore, makePgGoalStore(options)).pipe(Layer.provide(PgGoalDatabase.layer(options))),
  /** A session on a database the caller provides (one pool for many sessions). */
  layerSession: (options: PgGoalStoreOptions = {}): Layer.Layer<GoalStore, GoalStoreError, PgGoalDatabase> =>
    Layer.effect(GoalStore, makePgGoalStore(options))
} as const
