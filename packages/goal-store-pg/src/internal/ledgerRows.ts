import { type LedgerEvent, MalformedState } from "@armory/goal-store"
import { decodeLedgerLine, GoalState } from "@armory/goal-store/backend"
import { Result, Schema } from "effect"

/** A `goal_events` row as the store selects it: the payload as jsonb text, decoded by the ledger's own codec. */
export interface EventRow {
  readonly seq: number
  readonly payload: string
}

/** Decodes ledger rows; a row that is not an event of its sequence is `MalformedState` naming the seq as `line`. */
export const decodeEventRows = (rows: ReadonlyArray<EventRow>, file: string): Result.Result<ReadonlyArray<LedgerEvent>, MalformedState> => {
  const events: Array<LedgerEvent> = []
  for (const row of rows) {
    const decoded = decodeLedgerLine(row.payload)
    if (Result.isFailure(decoded)) return Result.fail(new MalformedState({ file, line: row.seq, reason: decoded.failure }))
    if (decoded.success.seq !== row.seq) {
      return Result.fail(new MalformedState({ file, line: row.seq, reason: `the payload carries sequence ${decoded.success.seq}` }))
    }
    events.push(decoded.success)
  }
  return Result.succeed(events)
}

const decodeState = Schema.decodeUnknownResult(GoalState)

/** Decodes a `goal_snapshots` row: the state must be a valid `GoalState` of the sequence the row names. */
export const decodeSnapshotRow = (row: { readonly seq: number; readonly state: unknown }, file: string): Result.Result<GoalState, MalformedState> => {
  const decoded = decodeState(row.state)
  if (Result.isFailure(decoded)) {
    return Result.fail(new MalformedState({ file, reason: `snapshot rejected: ${decoded.failure.message.replace(/\s+/g, " ")}` }))
  }
  if (decoded.success.seq !== row.seq) {
    return Result.fail(new MalformedState({ file, reason: `the snapshot of sequence ${row.seq} holds the state of ${decoded.success.seq}` }))
  }
  return Result.succeed(decoded.success)
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/**
 * Why jsonb cannot hold a value that JSON can: PostgreSQL refuses the NUL character and unpaired
 * UTF-16 surrogates in jsonb strings. Such text is refused before anything is written.
 */
export const unstorableReason = (value: unknown): string | undefined => {
  if (typeof value === "string") {
    if (value.includes("\u0000")) return "PostgreSQL jsonb cannot store the NUL character (U+0000)"
    if (LONE_SURROGATE.test(value)) return "PostgreSQL jsonb cannot store an unpaired UTF-16 surrogate"
    return undefined
  }
  if (typeof value !== "object" || value === null) return undefined
  for (const item of Array.isArray(value) ? value : Object.values(value)) {
    const reason = unstorableReason(item)
    if (reason !== undefined) return reason
  }
  return undefined
}
