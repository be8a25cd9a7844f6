import { open, rename, rm } from "node:fs/promises"
import { join } from "node:path"
import { Result, Schema } from "effect"
import { MalformedState } from "./Errors.js"
import type { FaultHooks } from "./Faults.js"
import { type GoalState, Goal, IdCounters } from "./Goal.js"
import { canonicalJson } from "./internal/canonicalJson.js"
import { SNAPSHOT_FILE } from "./SessionFiles.js"

export { SNAPSHOT_FILE }
export const SNAPSHOT_SCHEMA = "armory.goal.snapshot/v1"
/**
 * How far `goals.json` may fall behind the ledger before a writer rewrites it: this many bytes of
 * ledger past the position it reflects, or its own size when that is more.
 */
export const SNAPSHOT_LAG_BYTES = 64 * 1024

const Count = Schema.Number.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(0))

/** `goals.json`: the state after event `seq`, which ends at byte `ledgerBytes` of the ledger. */
export const SnapshotFile = Schema.Struct({
  schema: Schema.Literal(SNAPSHOT_SCHEMA),
  seq: Count,
  ledgerBytes: Count,
  counters: IdCounters,
  goal: Schema.NullOr(Goal)
})
export type SnapshotFile = typeof SnapshotFile.Type

const decodeSnapshotFile = Schema.decodeUnknownResult(SnapshotFile)

export interface DecodedSnapshot {
  readonly state: GoalState
  readonly ledgerBytes: number
}

/** The exact bytes of a snapshot: canonical key order, so `fold(ledger)` reproduces them. */
export const encodeSnapshot = (state: GoalState, ledgerBytes: number): string =>
  `${canonicalJson({ schema: SNAPSHOT_SCHEMA, seq: state.seq, ledgerBytes, counters: state.counters, goal: state.goal })}\n`

/** Validates snapshot bytes; anything else is `MalformedState` naming the file and the reason. */
export const decodeSnapshot = (bytes: Uint8Array, file: string): Result.Result<DecodedSnapshot, MalformedState> => {
  let value: unknown
  try {
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes))
  } catch (error) {
    return Result.fail(new MalformedState({ file, reason: `not valid JSON: ${error instanceof Error ? error.message : String(error)}` }))
  }
  const decoded = decodeSnapshotFile(value)
  if (Result.isFailure(decoded)) {
    return Result.fail(new MalformedState({ file, reason: `snapshot rejected: ${decoded.failure.message.replace(/\s+/g, " ")}` }))
  }
  const { seq, ledgerBytes, counters, goal } = decoded.success
  return Result.succeed({ state: { seq, counters, goal }, ledgerBytes })
}

/**
 * Replaces `goals.json` atomically: a temp file written and fsynced, renamed over the snapshot, then
 * the directory fsynced so the rename itself is durable. A reader sees the old or the new snapshot.
 * The fsyncs run off the event loop, so a server hosting the store keeps answering meanwhile.
 */
export const writeSnapshotAtomically = async (directory: string, text: string, faults: FaultHooks): Promise<void> => {
  const target = join(directory, SNAPSHOT_FILE)
  const temp = `${target}.${process.pid}.${Date.now().toString(36)}.tmp`
  try {
    const file = await open(temp, "w")
    try {
      faults.beforeStep?.("snapshot-write")
      const bytes = Buffer.from(text, "utf8")
      const { bytesWritten } = await file.write(bytes)
      if (bytesWritten !== bytes.length) throw new Error(`short write: ${bytesWritten} of ${bytes.length} bytes`)
      faults.beforeStep?.("snapshot-fsync")
      await file.sync()
    } finally {
      await file.close()
    }
    faults.beforeStep?.("snapshot-rename")
    await rename(temp, target)
  } catch (error) {
    await rm(temp, { force: true })
    throw error
  }
  faults.beforeStep?.("directory-fsync")
  await fsyncDirectory(directory)
}

/** Makes a directory's entries durable (a created or renamed file in it), off the event loop. */
export const fsyncDirectory = async (directory: string): Promise<void> => {
  const handle = await open(directory, "r")
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}
