// The goal store's Schemas alone — records, inputs, refusals and each operation's input and output —
// for what is built over the store without loading it: the HTTP API contract, a client. Nothing here
// reads a file or decides an event.
export { GOAL_OPERATION_SCHEMAS, type GoalMutationSchemas, type GoalOperationSchemas, type GoalReadSchemas } from "./GoalOperationSchemas.js"
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
export { GateStatus, GoalStatusReport, Owed, Unmet } from "./Gate.js"
export {
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
