import { readFileSync } from "node:fs"
import { join } from "node:path"
import { encodeSnapshot, fold, type GoalState, type LedgerScan, scanLedger } from "@armory/goal-store"
import { Result } from "effect"

export const ledgerOf = (directory: string): LedgerScan => {
  const file = join(directory, "ledger.jsonl")
  const scan = scanLedger(readFileSync(file), file)
  if (Result.isFailure(scan)) throw scan.failure
  return scan.success
}

export const foldLedger = (directory: string): GoalState => {
  const folded = fold(ledgerOf(directory).events)
  if (Result.isFailure(folded)) throw new Error(folded.failure.reason)
  return folded.success
}

/** The snapshot bytes `fold(ledger)` produces: a current `goals.json` must equal them exactly. */
export const rebuiltSnapshot = (directory: string): string =>
  encodeSnapshot(foldLedger(directory), ledgerOf(directory).committedBytes)

export const snapshotText = (directory: string): string => readFileSync(join(directory, "goals.json"), "utf8")
