// What a user of goals needs: opening a store, its operations, records, errors and tools, moving and
// repairing a ledger. What a storage backend needs (the rules as pure functions, the ledger's
// encoding, replay) is `@armory/goal-store/backend`.
export { GOAL_OPERATION_NAMES, GOAL_OPERATIONS, isMutationName } from "./GoalOperations.js"
export type { GoalMutationName, GoalOperationName, GoalOperations, GoalReadName, InputOf, ModelInputOf, OutputOf } from "./GoalOperations.js"
export {
  DEFAULT_ROOT,
  DEFAULT_SESSION,
  type GoalStoreOptions,
  makeFileGoalStore,
  makeScopedFileGoalStore,
  openGoalStore,
  type SessionPaths,
  sessionPaths
} from "./FileGoalStore.js"
export { GoalStore } from "./GoalStore.js"
export type { GoalStoreAccess, GoalStoreMutations, GoalStoreShape } from "./GoalStoreBackend.js"
export { runMutation, runRead } from "./GoalStoreBackend.js"
export { type GoalStoreClient, type GoalStoreClientMutations, SETTLE_AFTER_MS } from "./GoalStoreClient.js"
export { type GoalEffectTool, type GoalEffectTools, goalEffectTools, type GoalStoreRunner, type GoalTool, type GoalTools, goalTools } from "./GoalTools.js"
export {
  AddBlockerInput,
  AddCriterionInput,
  AddEvidenceInput,
  CheckpointInput,
  CompleteInput,
  ResolveBlockerInput,
  SetCriterionStatusInput,
  SetGoalStatusInput,
  SetInput,
  SteerInput
} from "./GoalInputs.js"
export {
  Blocker,
  Checkpoint,
  Criterion,
  CriterionSpec,
  CriterionStatus,
  Evidence,
  EvidenceKind,
  Goal,
  GoalStatus,
  QaChannel,
  SafeId,
  SettableGoalStatus,
  Steering,
  SteeringKind,
  Text
} from "./Goal.js"
export { GateStatus, GoalStatusReport, Owed, STALLED_STATUSES, Unmet } from "./Gate.js"
export {
  type DomainError,
  ForceNotAllowed,
  GateRefused,
  GoalAlreadyComplete,
  type GoalStoreError,
  InvalidInput,
  LockUnavailable,
  MalformedState,
  NoActiveGoal,
  ObjectiveConflict,
  SteeringRejected,
  StorageFailure,
  UnknownBlocker,
  UnknownCriterion
} from "./Errors.js"
export { SNAPSHOT_CRITERIA_SHOWN, renderSnapshot } from "./SnapshotText.js"
export { weakeningReason } from "./Steering.js"
export { LEDGER_SCHEMA, type LedgerEvent, type LedgerEventKind } from "./LedgerEvent.js"
export { decodeLedgerJsonl, encodeLedgerJsonl, exportFileLedger, type ImportReport, importLedger } from "./LedgerTransfer.js"
export { repair, repairGoalStore, type RepairOptions, type RepairReport } from "./Repair.js"
export { SNAPSHOT_LAG_BYTES } from "./Snapshot.js"
export type { LockOptions } from "./Lock.js"
export type { FaultHooks, WriteStep } from "./Faults.js"
