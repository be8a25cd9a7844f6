/**
 * Test seams of the PostgreSQL store, for fault-injection and crash tests only; production code
 * passes none. `beforeStep` runs inside the write transaction just before each step: `event-insert`
 * (the ledger row), `snapshot-write` (when the snapshot is due) and `commit` (after every statement,
 * before COMMIT is sent). A hook that throws or rejects fails that step, so the transaction rolls
 * back; a test process may kill itself there, or have the server end its connection.
 */
export type PgWriteStep = "event-insert" | "snapshot-write" | "commit"

export const PG_WRITE_STEPS: ReadonlyArray<PgWriteStep> = ["event-insert", "snapshot-write", "commit"]

export interface PgFaultHooks {
  readonly beforeStep?: (step: PgWriteStep, seq: number) => void | Promise<void>
}
