import { join } from "node:path"
import { Clock, Effect, Result } from "effect"
import { fold } from "./GoalRules.js"
import { type GoalStoreError, InvalidInput, isDomainError, MalformedState, StorageFailure } from "./Errors.js"
import { sessionPaths } from "./FileGoalStore.js"
import type { GoalStoreShape } from "./GoalStoreBackend.js"
import { decodeLedgerLine, encodeLedgerLine, LEDGER_FILE, scanLedger } from "./Ledger.js"
import type { LedgerEvent } from "./LedgerEvent.js"
import { ReplayOperator } from "./internal/ReplayOperator.js"
import type { GoalCommand, GoalMutationName, InputOf } from "./GoalOperations.js"
import { eventMillis, replayLedger } from "./LedgerReplay.js"
import { NOT_REGULAR_REASON, NotRegularFile, readRegularFile } from "./internal/regularFile.js"

/**
 * Moving a session's ledger between stores: `armory.goal.ledger/v1` events as JSON Lines, exported
 * from one backend and replayed into an empty session of another.
 */

/** A ledger as JSON Lines: one canonical line per event, each ending in a newline. */
export const encodeLedgerJsonl = (events: Iterable<LedgerEvent>): string => Array.from(events, encodeLedgerLine).join("")

/**
 * Parses JSON Lines into ledger events. Every line must be one event of the ledger schema; a final
 * newline is optional, blank lines are not. Whether the events follow each other is `importLedger`'s
 * check.
 */
export const decodeLedgerJsonl = (text: string): Result.Result<ReadonlyArray<LedgerEvent>, InvalidInput> => {
  const lines = text.split("\n")
  if (lines.at(-1) === "") lines.pop()
  const events: Array<LedgerEvent> = []
  for (const [index, raw] of lines.entries()) {
    const decoded = decodeLedgerLine(raw.endsWith("\r") ? raw.slice(0, -1) : raw)
    if (Result.isFailure(decoded)) return Result.fail(new InvalidInput({ reason: `ledger line ${index + 1}: ${decoded.failure}` }))
    events.push(decoded.success)
  }
  return Result.succeed(events)
}

/**
 * The committed events of a file-store session, read from its `ledger.jsonl` without taking the lock:
 * the ledger only grows, and a torn last line is not committed, so it is left out. The events are
 * folded, so a ledger that does not fold fails here, as the PostgreSQL export does, not at import.
 */
export const exportFileLedger = Effect.fn("exportFileLedger")(function* (
  options: { readonly root?: string | undefined; readonly sessionId?: string | undefined } = {}
): Effect.fn.Return<ReadonlyArray<LedgerEvent>, InvalidInput | MalformedState | StorageFailure> {
  const { directory } = yield* Effect.fromResult(sessionPaths(options))
  const file = join(directory, LEDGER_FILE)
  const bytes = yield* Effect.try({
    try: () => readRegularFile(file) ?? new Uint8Array(),
    catch: (error) =>
      error instanceof NotRegularFile
        ? new MalformedState({ file, reason: NOT_REGULAR_REASON })
        : new StorageFailure({ operation: "ledger read", file, reason: error instanceof Error ? error.message : String(error), committed: false })
  })
  const scan = yield* Effect.fromResult(scanLedger(bytes, file))
  const folded = fold(scan.events)
  if (Result.isFailure(folded)) {
    const index = scan.events.findIndex((event) => event.seq === folded.failure.seq)
    return yield* new MalformedState({ file, line: index + 1, reason: folded.failure.reason })
  }
  return scan.events
})

/** What an import wrote. */
export interface ImportReport {
  readonly sessionId: string
  readonly events: number
  readonly seq: number
}

/**
 * The clock a replayed command runs under: it reads the instant the event was stamped with, so the
 * store stamps the same `at`. Sleeping and monotonic time stay real (retries and lock waits).
 */
const clockAt = (clock: Clock.Clock, millis: number): Clock.Clock => ({
  currentTimeMillisUnsafe: () => millis,
  currentTimeMillis: Effect.succeed(millis),
  currentTimeNanosUnsafe: () => BigInt(millis) * 1_000_000n,
  currentTimeNanos: Effect.succeed(BigInt(millis) * 1_000_000n),
  monotonicTimeNanosUnsafe: () => clock.monotonicTimeNanosUnsafe(),
  monotonicTimeNanos: clock.monotonicTimeNanos,
  sleep: (duration) => clock.sleep(duration)
})

const runCommand = (store: GoalStoreShape, command: GoalCommand): Effect.Effect<unknown, GoalStoreError> => {
  const run = <N extends GoalMutationName>(operation: N, input: InputOf<N>) =>
    (store[operation] as unknown as (input: InputOf<N>) => Effect.Effect<unknown, GoalStoreError>)(input)
  return run(command.operation, command.input)
}

/**
 * Imports a ledger into an empty session of any store by replaying it through the domain: the whole
 * ledger is first checked in memory (every event must be exactly what the domain decides at that
 * point, so ids, attempts and the gate's verdicts carry over), then each event's command runs
 * against the store at the event's own time, so the store decides and writes the same events. A
 * session that already has a goal is refused, and nothing is written when any event does not replay.
 * Meant for a session no one else writes during the import.
 */
export const importLedger = Effect.fn("importLedger")(function* (
  store: GoalStoreShape,
  events: ReadonlyArray<LedgerEvent>
): Effect.fn.Return<ImportReport, GoalStoreError> {
  const replayed = replayLedger(events, store.sessionId)
  if (Result.isFailure(replayed)) {
    const index = events.findIndex((event) => event.seq === replayed.failure.seq)
    return yield* new InvalidInput({
      reason: `ledger line ${Math.max(index, 0) + 1} (seq ${replayed.failure.seq}) does not replay: ${replayed.failure.reason}`
    })
  }
  const { goal } = yield* store.status()
  if (goal !== null) {
    return yield* new InvalidInput({
      reason: `session ${store.sessionId} already holds goal ${goal.id}; a ledger is imported into an empty session only`
    })
  }
  const clock = yield* Clock.Clock
  for (const { event, command } of replayed.success) {
    // At the event's own time, and a forced one as the operator it names, so the store records it again byte for byte.
    const run = runCommand(store, command).pipe(
      Effect.provideService(Clock.Clock, clockAt(clock, eventMillis(event.at) ?? 0)),
      Effect.provideService(ReplayOperator, event.forcedBy)
    )
    // A refused steering directive is recorded and still answered with its refusal, whichever it is.
    yield* event.kind === "steering_rejected" ? Effect.catchIf(Effect.asVoid(run), isDomainError, () => Effect.void) : Effect.asVoid(run)
  }
  return { sessionId: store.sessionId, events: events.length, seq: replayed.success.at(-1)?.after.seq ?? 0 }
})
