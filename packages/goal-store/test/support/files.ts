import { readFileSync } from "node:fs"
import { join } from "node:path"
import { encodeSnapshot, fold, type GoalState, type LedgerScan, scanLedger } from "@armory/goal-store/backend"
import { Result } from "effect"
import { expect } from "vitest"

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

/**
 * The snapshot contract: `goals.json` is, byte for byte, the fold of the ledger up to the event it
 * names, recorded with the byte at which that event's line ends. Answers what it claims.
 */
export const expectSnapshotOfLedger = (directory: string): { readonly seq: number; readonly ledgerBytes: number } => {
  const text = snapshotText(directory)
  const claimed = JSON.parse(text) as { readonly seq: number; readonly ledgerBytes: number }
  const ledger = readFileSync(join(directory, "ledger.jsonl"))
  const ends: Array<number> = []
  for (let index = ledger.indexOf(0x0a); index !== -1; index = ledger.indexOf(0x0a, index + 1)) ends.push(index + 1)
  const prefix = fold(ledgerOf(directory).events.slice(0, claimed.seq))
  if (Result.isFailure(prefix)) throw new Error(prefix.failure.reason)
  expect(text).toBe(encodeSnapshot(prefix.success, claimed.seq === 0 ? 0 : (ends[claimed.seq - 1] ?? -1)))
  return claimed
}
