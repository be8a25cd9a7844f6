// What a storage backend of the goal store needs: the rules as pure functions over events (decide,
// fold), the store built over a backend's `transact`, the ledger's encoding and replay, and the file
// store's own parts (lock, snapshot, fault seams) for tests and tools that work below the API.
export { type DecideContext, type Decision, type FoldFailure, deriveStatus, fold, statusOf } from "./GoalRules.js"
export { evaluateGate } from "./Gate.js"
export { emptyState, GoalState, IdCounters } from "./Goal.js"
export { type GoalCommand, decideCommand, type GoalMutation, type GoalRead, mutationOf } from "./GoalOperations.js"
export { decideContext, type GoalStoreBackend, goalStoreFromBackend, type MutationMethod, mutationMethods } from "./GoalStoreBackend.js"
export { goalStoreClient } from "./GoalStoreClient.js"
export { storeAccess, listSessions, evidencePath } from "./FileGoalStore.js"
export { withoutForce } from "./GoalInputs.js"
export { isDomainError } from "./Errors.js"
export { canonicalJson } from "./internal/canonicalJson.js"
export {
  decodeLedgerLine,
  encodeLedgerLine,
  LEDGER_FILE,
  LEDGER_QUARANTINE_FILE,
  LedgerLineReader,
  type LedgerScan,
  scanLedger
} from "./Ledger.js"
export { type EventBody, LEDGER_EVENT_BY_KIND, LedgerEvent } from "./LedgerEvent.js"
export { commandOf, eventMillis, replayEvent, replayLedger, type ReplayStep } from "./LedgerReplay.js"
export { acquireLock, type HeldLock, type LockOwner, noLock } from "./Lock.js"
export { type DecodedSnapshot, decodeSnapshot, encodeSnapshot, SNAPSHOT_FILE, SNAPSHOT_SCHEMA, SnapshotFile } from "./Snapshot.js"
export { WRITE_STEPS } from "./Faults.js"
