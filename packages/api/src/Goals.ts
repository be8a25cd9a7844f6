import * as Store from "@armory/goal-store/schema"
import { Schema } from "effect"

/**
 * The `goals` group's schemas: `@armory/goal-store`'s own records, inputs and refusals (its
 * schema-only `/schema` entry), given the names and statuses they go by in the contract.
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
 *
 * File names in refusals are relative to the server's goals root: a body never shows where the
 * server keeps its files.
 */

export {
  Blocker,
  Checkpoint,
  Criterion,
  CriterionStatus,
  Evidence,
  EvidenceKind,
  Goal,
  GoalStatus,
  GoalStatusReport,
  QaChannel,
  SafeId,
  SettableGoalStatus,
  Steering,
  SteeringKind,
  Unmet
} from "@armory/goal-store/schema"

const inputs = Store.GOAL_OPERATION_SCHEMAS

export const SetInput = inputs.set.input.annotate({ identifier: "GoalSetInput" })
export const AddCriterionInput = inputs.addCriterion.input.annotate({ identifier: "GoalAddCriterionInput" })
export const AddEvidenceInput = inputs.addEvidence.input.annotate({ identifier: "GoalAddEvidenceInput" })
export const SetCriterionStatusInput = inputs.setCriterionStatus.input.annotate({ identifier: "GoalSetCriterionStatusInput" })
export const SteerInput = inputs.steer.input.annotate({ identifier: "GoalSteerInput" })
export const CheckpointInput = inputs.checkpoint.input.annotate({ identifier: "GoalCheckpointInput" })
export const AddBlockerInput = inputs.addBlocker.input.annotate({ identifier: "GoalAddBlockerInput" })
export const ResolveBlockerInput = inputs.resolveBlocker.input.annotate({ identifier: "GoalResolveBlockerInput" })
export const SetGoalStatusInput = inputs.setGoalStatus.input.annotate({ identifier: "GoalSetStatusInput" })
export const CompleteInput = inputs.complete.input.annotate({ identifier: "GoalCompleteInput" })

export class GateRefused extends Schema.TaggedError<GateRefused>()("GateRefused", Store.GateRefused.fields, { httpApiStatus: 409 }) {}

export class ObjectiveConflict extends Schema.TaggedError<ObjectiveConflict>()("ObjectiveConflict", Store.ObjectiveConflict.fields, {
  httpApiStatus: 409
}) {}

export class GoalAlreadyComplete extends Schema.TaggedError<GoalAlreadyComplete>()("GoalAlreadyComplete", Store.GoalAlreadyComplete.fields, {
  httpApiStatus: 409
}) {}

export class MalformedState extends Schema.TaggedError<MalformedState>()("MalformedState", Store.MalformedState.fields, { httpApiStatus: 409 }) {}

export class ForceNotAllowed extends Schema.TaggedError<ForceNotAllowed>()("ForceNotAllowed", Store.ForceNotAllowed.fields, { httpApiStatus: 403 }) {}

export class SteeringRejected extends Schema.TaggedError<SteeringRejected>()("SteeringRejected", Store.SteeringRejected.fields, {
  httpApiStatus: 422
}) {}

export class UnknownCriterion extends Schema.TaggedError<UnknownCriterion>()("UnknownCriterion", Store.UnknownCriterion.fields, {
  httpApiStatus: 404
}) {}

export class UnknownBlocker extends Schema.TaggedError<UnknownBlocker>()("UnknownBlocker", Store.UnknownBlocker.fields, { httpApiStatus: 404 }) {}

export class NoActiveGoal extends Schema.TaggedError<NoActiveGoal>()("NoActiveGoal", Store.NoActiveGoal.fields, { httpApiStatus: 404 }) {}

export class InvalidInput extends Schema.TaggedError<InvalidInput>()("InvalidInput", Store.InvalidInput.fields, { httpApiStatus: 422 }) {}

export class LockUnavailable extends Schema.TaggedError<LockUnavailable>()("LockUnavailable", Store.LockUnavailable.fields, { httpApiStatus: 503 }) {}

export class StorageFailure extends Schema.TaggedError<StorageFailure>()("StorageFailure", Store.StorageFailure.fields, { httpApiStatus: 500 }) {}

/** Every refusal of the goal store, by tag: what the server maps the store's errors onto. */
export const GoalsErrorsByTag = {
  GateRefused,
  ObjectiveConflict,
  GoalAlreadyComplete,
  MalformedState,
  ForceNotAllowed,
  SteeringRejected,
  UnknownCriterion,
  UnknownBlocker,
  NoActiveGoal,
  InvalidInput,
  LockUnavailable,
  StorageFailure
} as const satisfies { readonly [Tag in Store.GoalStoreError["_tag"]]: unknown }

export const GoalsErrors = Object.values(GoalsErrorsByTag)

export type GoalsError = InstanceType<(typeof GoalsErrorsByTag)[keyof typeof GoalsErrorsByTag]>

export const GoalSessionQuery = { sessionId: Schema.optionalKey(Store.SafeId) }

/** `GET /goals/snapshot`: the text a host injects every turn, in a JSON object. */
export const GoalSnapshot = Schema.Struct({ snapshot: Schema.String }).annotate({ identifier: "GoalSnapshot" })

type Operations = Store.GoalOperationSchemas
type OperationName = keyof Operations
type MutationName = { readonly [N in OperationName]: Operations[N] extends { readonly kind: "mutation" } ? N : never }[OperationName]
type ReadName = Exclude<OperationName, MutationName>

/**
 * How a goal operation is served: a mutation as `POST path` taking `payload` (the store's input, under
 * the name it goes by in the document), a read as `GET path` answering the store's output or, when
 * given, `success`.
 */
export interface GoalRoute {
  readonly path: `/${string}`
  readonly description: string
  readonly payload?: Schema.Top
  readonly success?: Schema.Top
}

interface GoalMutationRoute<N extends MutationName> extends GoalRoute {
  readonly payload: Operations[N]["input"]
}

/**
 * The route of every goal operation, in the order the document lists them; the store's
 * `GOAL_OPERATION_SCHEMAS` gives each its input and output, and an operation without a route here
 * does not compile.
 */
export const GOAL_ROUTES = {
  status: { path: "/goals/status", description: "The session's goal and its completion gate (passed, and everything unmet)." },
  snapshot: {
    path: "/goals/snapshot",
    description: "The short text a host injects every turn: objective, next unmet criteria, open blockers, gate.",
    success: GoalSnapshot
  },
  sessions: { path: "/goals/sessions", description: "The ids of the separate goal sessions under the server's goals root." },
  set: {
    path: "/goals/set",
    description: "Sets the session's objective (with optional criteria); a different objective than the active one is a 409 ObjectiveConflict.",
    payload: SetInput
  },
  addCriterion: { path: "/goals/criteria", description: "Adds a success criterion to the active goal.", payload: AddCriterionInput },
  addEvidence: {
    path: "/goals/evidence",
    description: "Attaches evidence (red, green, scenario, cleanup) to a criterion's current attempt.",
    payload: AddEvidenceInput
  },
  setCriterionStatus: {
    path: "/goals/criterion-status",
    description: "Sets a criterion's status; leaving fail or blocked starts a new attempt.",
    payload: SetCriterionStatusInput
  },
  steer: {
    path: "/goals/steer",
    description: "Records a steering directive; one that weakens completion is a 422 SteeringRejected (and recorded).",
    payload: SteerInput
  },
  checkpoint: { path: "/goals/checkpoint", description: "Records a progress checkpoint.", payload: CheckpointInput },
  addBlocker: { path: "/goals/blockers", description: "Opens a review blocker.", payload: AddBlockerInput },
  resolveBlocker: { path: "/goals/blockers/resolve", description: "Resolves a review blocker by id.", payload: ResolveBlockerInput },
  setGoalStatus: {
    path: "/goals/status",
    description: "Sets the goal status (not complete: completion goes through /goals/complete).",
    payload: SetGoalStatusInput
  },
  complete: {
    path: "/goals/complete",
    description: "Completes the goal; refused with a 409 GateRefused listing everything unmet until the evidence gate passes.",
    payload: CompleteInput
  }
} as const satisfies { readonly [N in MutationName]: GoalMutationRoute<N> } & { readonly [N in ReadName]: GoalRoute & { readonly payload?: never } }
