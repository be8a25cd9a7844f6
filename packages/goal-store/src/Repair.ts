import { copyFileSync, existsSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { Effect, Result } from "effect"
import { deriveStatus, fold } from "./GoalRules.js"
import { type GoalStoreError, StorageFailure } from "./Errors.js"
import { emptyState, type GoalState } from "./Goal.js"
import { type GoalStoreOptions, sessionPaths } from "./FileGoalStore.js"
import { evidencePath, writeEvidenceRecord } from "./internal/evidenceRecord.js"
import { jsonEqual } from "./internal/jsonEqual.js"
import { appendDurably, decodeLedgerLine, encodeLedgerLine, LEDGER_FILE, LEDGER_QUARANTINE_FILE } from "./Ledger.js"
import type { LedgerEvent } from "./LedgerEvent.js"
import { acquireLock, noLock } from "./Lock.js"
import { decodeSnapshot, encodeSnapshot, fsyncDirectory, SNAPSHOT_FILE, writeSnapshotAtomically } from "./Snapshot.js"
import { readRegularFile } from "./internal/regularFile.js"

export interface RepairOptions extends GoalStoreOptions {
  /** Report what would be done without changing anything. */
  readonly dryRun?: boolean | undefined
}

export interface RepairReport {
  readonly sessionId: string
  readonly directory: string
  /** What was done (or, with `dryRun`, what would be done), one sentence each; empty when healthy. */
  readonly actions: ReadonlyArray<string>
  readonly applied: boolean
}

interface LedgerLine {
  readonly line: number
  readonly text: string
  readonly event: LedgerEvent | undefined
  readonly reason: string | undefined
}

/**
 * The events to keep: every decodable line when, without the others, they still form a contiguous
 * sequence that folds (stray garbage lines); otherwise the longest valid prefix.
 */
const keptEvents = (lines: ReadonlyArray<LedgerLine>): { readonly kept: ReadonlyArray<LedgerLine>; readonly state: GoalState } => {
  const decodable = lines.filter((line) => line.event !== undefined)
  const all = fold(
    decodable.map((line) => line.event as LedgerEvent),
    emptyState
  )
  if (Result.isSuccess(all)) return { kept: decodable, state: all.success }
  const kept: Array<LedgerLine> = []
  let state = emptyState
  for (const line of lines) {
    if (line.event === undefined) break
    const next = fold([line.event], state)
    if (Result.isFailure(next)) break
    state = next.success
    kept.push(line)
  }
  return { kept, state }
}

/**
 * What to do with `goals.json`: nothing when it is the fold of the repaired ledger (`current`) or of a
 * prefix of a ledger the repair leaves as it is (`lagging`, as writers leave it); rewrite it when it
 * is missing, or consistent but behind a ledger the repair rewrites (`behind`); move it aside first
 * when it cannot be trusted: undecodable, not behind the ledger, or not its fold at the sequence it
 * claims.
 */
const judgeSnapshot = (
  snapshotPath: string,
  kept: ReadonlyArray<LedgerLine>,
  lineEnds: ReadonlyArray<number>,
  state: GoalState,
  expected: string,
  rewritten: boolean
): "missing" | "current" | "lagging" | "behind" | "untrusted" => {
  const bytes = readRegularFile(snapshotPath)
  if (bytes === undefined) return "missing"
  if (bytes.toString("utf8") === expected) return "current"
  const recorded = decodeSnapshot(bytes, snapshotPath)
  if (Result.isFailure(recorded) || recorded.success.state.seq >= state.seq) return "untrusted"
  const { state: claimed, ledgerBytes } = recorded.success
  const prefix = fold(
    kept.slice(0, claimed.seq).map((line) => line.event as LedgerEvent),
    emptyState
  )
  if (Result.isFailure(prefix) || !jsonEqual(deriveStatus(prefix.success), deriveStatus(claimed))) return "untrusted"
  return !rewritten && ledgerBytes === (claimed.seq === 0 ? 0 : lineEnds[claimed.seq - 1]) ? "lagging" : "behind"
}

const stamp = () => new Date().toISOString().replace(/[:.]/g, "-")

const planAndApply = async (directory: string, dryRun: boolean): Promise<ReadonlyArray<string>> => {
  const actions: Array<string> = []
  const ledgerPath = join(directory, LEDGER_FILE)
  const snapshotPath = join(directory, SNAPSHOT_FILE)
  const bytes = readRegularFile(ledgerPath) ?? Buffer.alloc(0)
  const text = bytes.toString("utf8")
  const segments = text.split("\n")
  const torn = segments.pop() ?? ""
  const lines: Array<LedgerLine> = segments.map((segment, index) => {
    const decoded = decodeLedgerLine(segment)
    return Result.isSuccess(decoded)
      ? { line: index + 1, text: segment, event: decoded.success, reason: undefined }
      : { line: index + 1, text: segment, event: undefined, reason: decoded.failure }
  })
  const { kept, state } = keptEvents(lines)
  const keptLines = new Set(kept.map((line) => line.line))
  const dropped = lines.filter((line) => !keptLines.has(line.line))
  const backup = `${ledgerPath}.bak-${stamp()}`
  if (dropped.length > 0 || torn.length > 0) {
    if (dropped.length > 0) {
      actions.push(
        `quarantine ${dropped.length} ledger line${dropped.length === 1 ? "" : "s"} (${dropped.map((line) => `line ${line.line}${line.reason === undefined ? "" : `: ${line.reason}`}`).join("; ")}) to ${LEDGER_QUARANTINE_FILE}, keeping the original ledger as ${backup}`
      )
    }
    if (torn.length > 0) actions.push(`quarantine the uncommitted torn tail (${Buffer.byteLength(torn)} bytes) to ${LEDGER_QUARANTINE_FILE}`)
    if (!dryRun) {
      copyFileSync(ledgerPath, backup)
      appendDurably(
        join(directory, LEDGER_QUARANTINE_FILE),
        Buffer.from([...dropped.map((line) => line.text), ...(torn.length > 0 ? [torn] : [])].map((line) => `${line}\n`).join(""))
      )
      const temp = `${ledgerPath}.repair.tmp`
      writeFileSync(temp, kept.map((line) => encodeLedgerLine(line.event as LedgerEvent)).join(""), { flush: true })
      renameSync(temp, ledgerPath)
      await fsyncDirectory(directory)
    }
  }
  const rewritten = dropped.length > 0 || torn.length > 0
  const lineEnds: Array<number> = []
  for (const line of kept) {
    const length = rewritten ? Buffer.byteLength(encodeLedgerLine(line.event as LedgerEvent)) : Buffer.byteLength(line.text) + 1
    lineEnds.push((lineEnds.at(-1) ?? 0) + length)
  }
  const expected = encodeSnapshot(state, lineEnds.at(-1) ?? 0)
  const verdict = judgeSnapshot(snapshotPath, kept, lineEnds, state, expected, rewritten)
  if (verdict !== "current" && verdict !== "lagging") {
    const aside = `${snapshotPath}.malformed-${stamp()}`
    actions.push(
      verdict === "missing"
        ? `write ${SNAPSHOT_FILE} from the ledger (sequence ${state.seq})`
        : verdict === "untrusted"
          ? `move the untrusted ${SNAPSHOT_FILE} aside to ${aside} and rebuild it from the ledger (sequence ${state.seq})`
          : `rebuild ${SNAPSHOT_FILE}, which is behind the ledger, from it (sequence ${state.seq})`
    )
    if (!dryRun) {
      if (verdict === "untrusted") renameSync(snapshotPath, aside)
      await writeSnapshotAtomically(directory, expected, {})
    }
  }
  const missingEvidence = (state.goal?.criteria ?? [])
    .flatMap((criterion) => criterion.evidence)
    .filter((evidence) => !existsSync(join(directory, evidencePath(evidence))))
  if (missingEvidence.length > 0) {
    actions.push(`write ${missingEvidence.length} missing evidence record${missingEvidence.length === 1 ? "" : "s"} under evidence/`)
    if (!dryRun) {
      for (const evidence of missingEvidence) await writeEvidenceRecord(directory, evidence)
    }
  }
  const strayTemps = existsSync(directory)
    ? readdirSync(directory).filter((name) => name.startsWith(`${SNAPSHOT_FILE}.`) && name.endsWith(".tmp"))
    : []
  if (strayTemps.length > 0) {
    actions.push(`remove ${strayTemps.length} temp file${strayTemps.length === 1 ? "" : "s"} left by interrupted snapshot writes`)
    if (!dryRun) for (const name of strayTemps) rmSync(join(directory, name), { force: true })
  }
  return actions
}

/**
 * The explicit fix for a session whose files an open refused: under the session lock, quarantines
 * undecodable or inconsistent ledger lines and any torn tail (kept in `ledger.quarantine`, the
 * original ledger kept as a `.bak` copy), moves a malformed snapshot aside and rebuilds it from the
 * ledger, and restores missing evidence records. Nothing is deleted except temp files of
 * interrupted writes. With `dryRun` it only reports what it would do.
 */
export const repair = Effect.fn("repair")(function* (options: RepairOptions): Effect.fn.Return<RepairReport, GoalStoreError> {
  const { directory, sessionId } = yield* Effect.fromResult(sessionPaths(options))
  const dryRun = options.dryRun ?? false
  const run = Effect.tryPromise({
    try: () => planAndApply(directory, dryRun),
    catch: (error) =>
      new StorageFailure({ operation: "repair", file: directory, reason: error instanceof Error ? error.message : String(error), committed: false })
  })
  const actions =
    dryRun || !existsSync(directory)
      ? yield* run
      : yield* Effect.scoped(
          Effect.andThen(options.locking === false ? Effect.succeed(noLock(directory)) : acquireLock(join(directory, ".lock"), options.lock), run)
        )
  const report: RepairReport = { sessionId, directory, actions, applied: !dryRun && actions.length > 0 }
  return report
})

/** {@link repair} without Effect. */
export const repairGoalStore = (options: RepairOptions = {}): Promise<RepairReport> => Effect.runPromise(repair(options))
