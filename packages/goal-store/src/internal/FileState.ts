import { join } from "node:path"
import { Result } from "effect"
import { deriveStatus, fold } from "../GoalRules.js"
import { MalformedState } from "../Errors.js"
import { emptyState, type GoalState } from "../Goal.js"
import { LEDGER_FILE, LedgerLineReader } from "../Ledger.js"
import type { LedgerEvent } from "../LedgerEvent.js"
import { decodeSnapshot, SNAPSHOT_FILE, SNAPSHOT_LAG_BYTES } from "../Snapshot.js"
import { jsonEqual } from "./jsonEqual.js"
import { readRegularFile, readRegularFileOffLoop } from "./regularFile.js"
import { type LedgerFileInfo, type LedgerSource, readLedgerRange, statLedger } from "./ledgerFile.js"

/** Where `goals.json` stands: the ledger position it reflects and its own size. */
export interface SnapshotMark {
  readonly ledgerBytes: number
  readonly bytes: number
}

/** A session's state as read from its files, with where the committed ledger ends. */
export interface LoadedState {
  /** Exactly `fold(ledger)`. */
  readonly state: GoalState
  readonly committedBytes: number
  /** Bytes of an uncommitted tail after the last complete line, for the next writer to quarantine. */
  readonly tornBytes: number
  readonly ino: number | undefined
  /**
   * The `goals.json` this process last read or wrote, which reflects a position of this ledger;
   * `undefined` when there is none.
   */
  readonly snapshot: SnapshotMark | undefined
}

export const ledgerAt = (path: string): LedgerSource => ({
  stat: () => statLedger(path),
  read: (position, length) => readLedgerRange(path, position, length)
})

/**
 * Whether a writer should replace `goals.json` now. It may lag the ledger — the ledger is the source
 * of truth and every open folds all of it — so it is rewritten only when missing or untrusted, or once
 * the ledger has grown past it by `SNAPSHOT_LAG_BYTES` or by its own size, whichever is more: a
 * snapshot is then rewritten at most about once per its own size appended, instead of on every
 * event (which made rewriting it most of the cost of a write, growing with the goal).
 */
export const snapshotDue = (loaded: LoadedState): boolean =>
  loaded.snapshot === undefined ||
  loaded.committedBytes - loaded.snapshot.ledgerBytes >= Math.max(SNAPSHOT_LAG_BYTES, loaded.snapshot.bytes)

/** Whether `goals.json` is behind the ledger at all (what a closing writer brings up to date). */
export const snapshotBehind = (loaded: LoadedState): boolean =>
  loaded.snapshot === undefined || loaded.snapshot.ledgerBytes !== loaded.committedBytes

/** The result of folding ledger lines: the state, and the byte (in the bytes read) and line after the last one. */
interface Folded {
  readonly state: GoalState
  readonly end: number
  readonly line: number
}

/**
 * Decodes and folds the complete lines of `bytes` from index `start` (line number `line`) onto
 * `from`, stopping after event `untilSeq` or at the last newline. Each event is applied as it is
 * decoded and then dropped, so a long ledger is folded without holding all its events.
 *
 * The failure is the one a scan of every line followed by a fold reports: the first line that does
 * not decode or continue the sequence, wherever it is; only when there is none, the first event that
 * does not apply.
 */
const foldLines = (
  bytes: Buffer,
  file: string,
  start: number,
  line: number,
  from: GoalState,
  untilSeq: number
): Result.Result<Folded, MalformedState> => {
  const reader = new LedgerLineReader(bytes, file, start, line, from.seq)
  function* events(): Generator<LedgerEvent> {
    while (reader.seq < untilSeq) {
      const event = reader.next()
      if (event === undefined) return
      yield event
    }
  }
  const folded = fold(events(), from)
  if (reader.broken !== undefined) return Result.fail(reader.broken)
  if (Result.isSuccess(folded)) return Result.succeed({ state: folded.success, end: reader.end, line: reader.line })
  const failed = new MalformedState({ file, line: reader.line - 1, reason: folded.failure.reason })
  let event = reader.next()
  while (event !== undefined) event = reader.next()
  return Result.fail(reader.broken ?? failed)
}

/** What a full load reads: `goals.json`'s bytes (`undefined` when there is none), the ledger's, and the ledger's identity. */
interface SessionFiles {
  readonly snapshot: Buffer | undefined
  readonly ledger: Buffer
  readonly info: LedgerFileInfo | undefined
}

const readSessionFiles = (directory: string, source: LedgerSource): SessionFiles => {
  const snapshot = readRegularFile(join(directory, SNAPSHOT_FILE))
  const info = source.stat()
  const raw = info === undefined ? new Uint8Array() : source.read(0, info.size)
  return { snapshot, ledger: Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength), info }
}

/** The same files read on the thread pool, for an open that must not hold up the event loop of a server hosting the store. */
const readSessionFilesOffLoop = async (directory: string): Promise<SessionFiles> => {
  const snapshot = await readRegularFileOffLoop(join(directory, SNAPSHOT_FILE))
  const ledger = await readRegularFileOffLoop(join(directory, LEDGER_FILE))
  return {
    snapshot: snapshot?.bytes,
    ledger: ledger?.bytes ?? Buffer.alloc(0),
    info: ledger === undefined ? undefined : { size: ledger.bytes.length, ino: ledger.ino }
  }
}

/** A full load of what was read: see `loadFull`. */
const loadFiles = (directory: string, files: SessionFiles): Result.Result<LoadedState, MalformedState> => {
  const ledgerPath = join(directory, LEDGER_FILE)
  const snapshotPath = join(directory, SNAPSHOT_FILE)
  const snapshotBytes = files.snapshot
  const snapshot =
    snapshotBytes === undefined
      ? Result.succeed(undefined)
      : Result.map(decodeSnapshot(snapshotBytes, snapshotPath), (decoded) => ({ ...decoded, size: snapshotBytes.length }))
  if (Result.isFailure(snapshot)) return Result.fail(snapshot.failure)
  const recorded = snapshot.success
  const { info, ledger: bytes } = files
  const head = foldLines(bytes, ledgerPath, 0, 1, emptyState, recorded?.state.seq ?? 0)
  if (Result.isFailure(head)) return Result.fail(head.failure)
  const all = foldLines(bytes, ledgerPath, head.success.end, head.success.line, head.success.state, Number.POSITIVE_INFINITY)
  if (Result.isFailure(all)) return Result.fail(all.failure)
  // `head` stops at the snapshot's sequence unless the ledger ends first. A snapshot is only ever
  // written for committed events, so one ahead of the ledger, or naming a position the ledger does not
  // have, means the ledger was cut, replaced or deleted: the snapshot may be the only copy of what was
  // lost, and replacing it with the fold of what is left would destroy it. Both files stay as found.
  if (recorded !== undefined) {
    const { seq } = recorded.state
    if (head.success.state.seq < seq) {
      return Result.fail(
        new MalformedState({
          file: snapshotPath,
          reason: `the snapshot reflects sequence ${seq} but the ledger ends at ${head.success.state.seq}: the ledger was cut or deleted; restore it, or run repair to rebuild the snapshot from what is left`
        })
      )
    }
    if (!jsonEqual(deriveStatus(recorded.state), deriveStatus(head.success.state))) {
      return Result.fail(new MalformedState({ file: snapshotPath, reason: `the snapshot does not match the ledger at sequence ${seq}` }))
    }
    if (recorded.ledgerBytes !== head.success.end) {
      return Result.fail(
        new MalformedState({
          file: snapshotPath,
          reason: `the snapshot places sequence ${seq} at ledger byte ${recorded.ledgerBytes}, but the ledger has it at byte ${head.success.end}: the ledger was rewritten`
        })
      )
    }
  }
  return Result.succeed({
    state: all.success.state,
    committedBytes: all.success.end,
    tornBytes: bytes.length - all.success.end,
    ino: info?.ino,
    snapshot: recorded === undefined ? undefined : { ledgerBytes: recorded.ledgerBytes, bytes: recorded.size }
  })
}

/**
 * Reads the whole session: validates `goals.json`, then decodes and folds the whole ledger, checking
 * on the way that the snapshot holds exactly the fold at the sequence and byte position it claims.
 * The ledger wins when the snapshot is behind; a snapshot ahead of the ledger, or that disagrees with
 * the ledger at the position it names, is malformed, and a ledger line that does not decode, follow or
 * apply is malformed before that. Files are only read here, never written.
 */
export const loadFull = (
  directory: string,
  source: LedgerSource = ledgerAt(join(directory, LEDGER_FILE))
): Result.Result<LoadedState, MalformedState> => loadFiles(directory, readSessionFiles(directory, source))

/** `loadFull`, its reads on the thread pool (the decoding and folding stay on this thread). */
export const loadFullOffLoop = async (directory: string): Promise<Result.Result<LoadedState, MalformedState>> =>
  loadFiles(directory, await readSessionFilesOffLoop(directory))

/**
 * Brings a loaded state up to date with the ledger by reading only what was appended since; falls
 * back to a full load when the ledger was replaced or cut, or the appended part does not continue it.
 */
export const refresh = (
  directory: string,
  known: LoadedState,
  source: LedgerSource = ledgerAt(join(directory, LEDGER_FILE))
): Result.Result<LoadedState, MalformedState> => {
  const info = source.stat()
  if (info === undefined) return known.ino === undefined ? Result.succeed(known) : loadFull(directory, source)
  if (info.ino !== known.ino || info.size < known.committedBytes) return loadFull(directory, source)
  const appended = info.size - known.committedBytes
  if (appended === 0) return Result.succeed(known.tornBytes === 0 ? known : { ...known, tornBytes: 0 })
  const raw = source.read(known.committedBytes, appended)
  const bytes = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength)
  const folded = foldLines(bytes, join(directory, LEDGER_FILE), 0, 1, known.state, Number.POSITIVE_INFINITY)
  if (Result.isFailure(folded)) return loadFull(directory, source)
  return Result.succeed({
    state: folded.success.state,
    committedBytes: known.committedBytes + folded.success.end,
    tornBytes: bytes.length - folded.success.end,
    ino: info.ino,
    snapshot: known.snapshot
  })
}
