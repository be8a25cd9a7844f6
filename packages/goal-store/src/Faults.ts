/**
 * Test seams of the file store, for fault-injection and crash tests only; production code passes
 * none of these. `beforeStep` runs just before each durable step of a write: throwing from it makes
 * that step fail as an I/O error would, and a test process may kill itself there to simulate a
 * crash at that exact point.
 */
export type WriteStep =
  | "ledger-write"
  | "ledger-fsync"
  | "snapshot-write"
  | "snapshot-fsync"
  | "snapshot-rename"
  | "directory-fsync"
  | "unlock"

export const WRITE_STEPS: ReadonlyArray<WriteStep> = [
  "ledger-write",
  "ledger-fsync",
  "snapshot-write",
  "snapshot-fsync",
  "snapshot-rename",
  "directory-fsync",
  "unlock"
]

export interface FaultHooks {
  readonly beforeStep?: (step: WriteStep) => void
}
