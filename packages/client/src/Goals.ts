import {
  AddBlockerInput,
  AddCriterionInput,
  AddEvidenceInput,
  Blocker,
  CheckpointInput,
  Checkpoint,
  CompleteInput,
  Criterion,
  Evidence,
  ForceNotAllowed,
  GateRefused,
  Goal,
  GoalAlreadyComplete,
  GoalStatusReport,
  InvalidInput,
  LockUnavailable,
  MalformedState,
  NoActiveGoal,
  ObjectiveConflict,
  ResolveBlockerInput,
  SafeId,
  SetCriterionStatusInput,
  SetGoalStatusInput,
  SetInput,
  SteerInput,
  Steering,
  SteeringRejected,
  StorageFailure,
  UnknownBlocker,
  UnknownCriterion
} from "@armory/goal-store"
import { Schema } from "effect"
import { HttpApiSchema } from "effect/http-api"

/**
 * The `goals` group's schemas, all of them the goal store's own (never redeclared here): this
 * module only names them for the OpenAPI document and gives each refusal its HTTP status.
 *
 * Statuses, chosen so that every refusal is a typed response a client can act on:
 * - 409 Conflict — the request clashes with the goal's state: `GateRefused` (with `unmet`),
 *   `ObjectiveConflict`, `GoalAlreadyComplete`, and `MalformedState` (the state on disk needs
 *   `armory goal repair`; retrying will not help, and it is no server bug, so not a 500).
 * - 422 — `SteeringRejected` (a well-formed directive refused for weakening completion) and
 *   `InvalidInput` (a body that fits its Schema but that the store's rules refuse): 400 stays the
 *   problem response of a body or query that fails its Schema, with the Schema's `errors`.
 * - 403 — `ForceNotAllowed`: `force` on a server started without a goal operator.
 * - 404 — `UnknownCriterion`, `UnknownBlocker`, `NoActiveGoal`.
 * - 503 — `LockUnavailable`: another writer holds the session lock; retry later.
 * - 500 — `StorageFailure`: the disk failed (still typed, with `committed`); never a user error.
 */

export const GoalSessionQuery = { sessionId: Schema.optionalKey(SafeId) }

export const GoalsErrors = [
  HttpApiSchema.status(409)(GateRefused),
  HttpApiSchema.status(409)(ObjectiveConflict),
  HttpApiSchema.status(409)(GoalAlreadyComplete),
  HttpApiSchema.status(409)(MalformedState),
  HttpApiSchema.status(403)(ForceNotAllowed),
  HttpApiSchema.status(422)(SteeringRejected),
  HttpApiSchema.status(404)(UnknownCriterion),
  HttpApiSchema.status(404)(UnknownBlocker),
  HttpApiSchema.status(404)(NoActiveGoal),
  HttpApiSchema.status(422)(InvalidInput),
  HttpApiSchema.status(503)(LockUnavailable),
  HttpApiSchema.status(500)(StorageFailure)
] as const

export const GoalSchemas = {
  SetInput: SetInput.annotate({ identifier: "GoalSetInput" }),
  AddCriterionInput: AddCriterionInput.annotate({ identifier: "GoalAddCriterionInput" }),
  AddEvidenceInput: AddEvidenceInput.annotate({ identifier: "GoalAddEvidenceInput" }),
  SetCriterionStatusInput: SetCriterionStatusInput.annotate({ identifier: "GoalSetCriterionStatusInput" }),
  SteerInput: SteerInput.annotate({ identifier: "GoalSteerInput" }),
  CheckpointInput: CheckpointInput.annotate({ identifier: "GoalCheckpointInput" }),
  AddBlockerInput: AddBlockerInput.annotate({ identifier: "GoalAddBlockerInput" }),
  ResolveBlockerInput: ResolveBlockerInput.annotate({ identifier: "GoalResolveBlockerInput" }),
  SetGoalStatusInput: SetGoalStatusInput.annotate({ identifier: "GoalSetStatusInput" }),
  CompleteInput: CompleteInput.annotate({ identifier: "GoalCompleteInput" }),
  Goal: Goal.annotate({ identifier: "Goal" }),
  Criterion: Criterion.annotate({ identifier: "Criterion" }),
  Evidence: Evidence.annotate({ identifier: "Evidence" }),
  Steering: Steering.annotate({ identifier: "Steering" }),
  Checkpoint: Checkpoint.annotate({ identifier: "Checkpoint" }),
  Blocker: Blocker.annotate({ identifier: "Blocker" }),
  GoalStatusReport: GoalStatusReport.annotate({ identifier: "GoalStatusReport" })
}

/** `GET /goals/snapshot`: the text a host injects every turn, in a JSON object. */
export const GoalSnapshot = Schema.Struct({ snapshot: Schema.String }).annotate({ identifier: "GoalSnapshot" })
