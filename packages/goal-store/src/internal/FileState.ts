import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { Result } from "effect"
import { deriveStatus, fold } from "../Domain.js"
import { MalformedState } from "../Errors.js"
import { emptyState, type GoalState } from "../Goal.js"
import { LEDGER_FILE, type LedgerScan, readLedgerRange, scanLedger, statLedger } from "../Ledger.js"
import { decodeSnapshot, SNAPSHOT_FILE } from "../Snapshot.js"
import { canonicalJson } from "./canonicalJson.js"

/** A session's state as read from its files, with where the committed ledger ends. */
export interface LoadedState {
  /** Exactly `fold(ledger)`: what the next snapshot is written from. */
  readonly state: GoalState
  readonly committedBytes: number
  /** Bytes of an uncommitted tail after the last complete line, for the next writer to quarantine. */
  readonly tornBytes: number
  readonly ino: number | undefined
  /** Whether `goals.json` is missing, behind, ahead of or otherwise different from `fold(ledger)`. */
  readonly snapshotStale: boolean
}

const foldScan = (scan: LedgerScan, file: string, from: GoalState, firstLine: number): Result.Result<GoalState, MalformedState> => {
  const folded = fold(scan.events, from)
  if (Result.isSuccess(folded)) return Result.succeed(folded.success)
  const index = scan.events.findIndex((event) => event.seq === folded.failure.seq)
  return Result.fail(new MalformedState({ file, line: firstLine + Math.max(index, 0), reason: folded.failure.reason }))
}

/**
 * Reads the whole session: validates `goals.json`, scans and folds the whole ledger, and checks that
 * a snapshot claiming the ledger's last sequence holds exactly its fold. The ledger wins whenever the
 * snapshot is behind (or ahead of a ledger whose torn tail was dropped); a snapshot that disagrees
 * with the ledger it claims to reflect is malformed. Files are only read here, never written.
 */
export const loadFull = (directory: string): Result.Result<LoadedState, MalformedState> => {
  const ledgerPath = join(directory, LEDGER_FILE)
  const snapshotPath = join(directory, SNAPSHOT_FILE)
  const snapshot = existsSync(snapshotPath) ? decodeSnapshot(readFileSync(snapshotPath), snapshotPath) : undefined
  if (snapshot !== undefined && Result.isFailure(snapshot)) return Result.fail(snapshot.failure)
  const info = statLedger(ledgerPath)
  const bytes = info === undefined ? new Uint8Array() : readLedgerRange(ledgerPath, 0, info.size)
  const scan = scanLedger(bytes, ledgerPath)
  if (Result.isFailure(scan)) return Result.fail(scan.failure)
  const state = foldScan(scan.success, ledgerPath, emptyState, 1)
  if (Result.isFailure(state)) return Result.fail(state.failure)
  let snapshotStale = true
  if (snapshot !== undefined) {
    const recorded = snapshot.success.state
    if (recorded.seq === state.success.seq) {
      if (canonicalJson(deriveStatus(recorded)) !== canonicalJson(deriveStatus(state.success))) {
        return Result.fail(
          new MalformedState({ file: snapshotPath, reason: `the snapshot does not match the ledger at sequence ${recorded.seq}` })
        )
      }
      snapshotStale = snapshot.success.ledgerBytes !== scan.success.committedBytes
    }
  }
  return Result.succeed({
    state: state.success,
    committedBytes: scan.success.committedBytes,
    tornBytes: scan.success.tornBytes,
    ino: info?.ino,
    snapshotStale
  })
}

/**
 * Brings a loaded state up to date with the ledger by reading only what was appended since; falls
 * back to a full load when the ledger was replaced or cut, or the appended part does not continue it.
 */
export const refresh = (directory: string, known: LoadedState): Result.Result<LoadedState, MalformedState> => {
  const ledgerPath = join(directory, LEDGER_FILE)
  const info = statLedger(ledgerPath)
  if (info === undefined) return known.ino === undefined ? Result.succeed(known) : loadFull(directory)
  if (info.ino !== known.ino || info.size < known.committedBytes) return loadFull(directory)
  const appended = info.size - known.committedBytes
  if (appended === 0) return Result.succeed(known.tornBytes === 0 ? known : { ...known, tornBytes: 0 })
  const scan = scanLedger(readLedgerRange(ledgerPath, known.committedBytes, appended), ledgerPath, {
    offset: known.committedBytes,
    previousSeq: known.state.seq
  })
  if (Result.isFailure(scan)) return loadFull(directory)
  if (scan.success.events.length === 0) return Result.succeed({ ...known, tornBytes: scan.success.tornBytes })
  const state = fold(scan.success.events, known.state)
  if (Result.isFailure(state)) return loadFull(directory)
  return Result.succeed({
    state: state.success,
    committedBytes: scan.success.committedBytes,
    tornBytes: scan.success.tornBytes,
    ino: info.ino,
    snapshotStale: true
  })
}
