import { Schema } from "effect"

/**
 * The `goals` group's schemas: `@armory/goal-store`'s inputs, records and refusals, mirrored like
 * `Armed`. Inputs say exactly what the store accepts (the server's tests check both ways); records
 * and refusals are what the store answers.
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

export const QaChannel = Schema.Literals(["http", "tmux", "browser", "computer", "cli"])
export const CriterionStatus = Schema.Literals(["pending", "in_progress", "pass", "fail", "blocked", "needs_user_decision"])
export const GoalStatus = Schema.Literals(["active", "review_blocked", "needs_user_decision", "blocked", "complete"])
export const SettableGoalStatus = Schema.Literals(["active", "review_blocked", "needs_user_decision", "blocked"])
export const EvidenceKind = Schema.Literals(["red", "green", "scenario", "cleanup", "note"])
export const SteeringKind = Schema.Literals(["add_criterion", "redirect", "narrow_scope", "reprioritize", "annotate"])

export const SafeId = Schema.String.check(
  Schema.isPattern(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, {
    description: "an id of 1-64 letters, digits, '-' or '_', starting with a letter or digit"
  })
)

const Text = Schema.String.check(Schema.isPattern(/\S/, { description: "a non-blank text" }))
const Attempt = Schema.Number.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(1))

const CriterionSpec = Schema.Struct({ scenario: Text, qaChannel: QaChannel, testRef: Text })

const force = {
  force: Schema.optionalKey(
    Schema.Boolean.annotate({
      description:
        "Operator only: change a goal that is already complete (recorded with the operator's name). Never opens the gate; refused with ForceNotAllowed by a store opened without an operator."
    })
  )
}

export const Evidence = Schema.Struct({
  id: SafeId,
  criterionId: SafeId,
  kind: EvidenceKind,
  ref: Text,
  detail: Schema.optionalKey(Schema.String),
  attempt: Attempt,
  at: Schema.String
}).annotate({ identifier: "Evidence" })

export const Criterion = Schema.Struct({
  id: SafeId,
  scenario: Text,
  qaChannel: QaChannel,
  testRef: Text,
  status: CriterionStatus,
  attempt: Attempt,
  evidence: Schema.Array(Evidence)
}).annotate({ identifier: "Criterion" })

export const Checkpoint = Schema.Struct({
  id: SafeId,
  summary: Text,
  activeCriterion: Schema.optionalKey(SafeId),
  at: Schema.String
}).annotate({ identifier: "Checkpoint" })

export const Steering = Schema.Struct({
  id: SafeId,
  kind: SteeringKind,
  directive: Text,
  evidence: Text,
  rationale: Text,
  criterionId: Schema.optionalKey(SafeId),
  at: Schema.String
}).annotate({ identifier: "Steering" })

export const Blocker = Schema.Struct({
  id: SafeId,
  detail: Text,
  status: Schema.Literals(["open", "resolved"]),
  openedAt: Schema.String,
  resolvedAt: Schema.optionalKey(Schema.String)
}).annotate({ identifier: "Blocker" })

export const Goal = Schema.Struct({
  id: SafeId,
  objective: Text,
  status: GoalStatus,
  criteria: Schema.Array(Criterion),
  checkpoints: Schema.Array(Checkpoint),
  steering: Schema.Array(Steering),
  reviewBlockers: Schema.Array(Blocker),
  createdAt: Schema.String,
  updatedAt: Schema.String,
  completedAt: Schema.optionalKey(Schema.String)
}).annotate({ identifier: "Goal" })

/** One reason the completion gate is closed. */
export const Unmet = Schema.Union([
  Schema.Struct({
    kind: Schema.Literal("criterion"),
    criterionId: Schema.String,
    scenario: Schema.String,
    status: CriterionStatus,
    attempt: Schema.Number,
    owes: Schema.Array(Schema.Literals(["pass", "green", "scenario"]))
  }),
  Schema.Struct({ kind: Schema.Literal("blocker"), blockerId: Schema.String, detail: Schema.String }),
  Schema.Struct({ kind: Schema.Literal("goal"), status: GoalStatus, reason: Schema.String })
]).annotate({ identifier: "Unmet" })

export const GoalStatusReport = Schema.Struct({
  goal: Schema.NullOr(Goal),
  gate: Schema.Struct({ passed: Schema.Boolean, unmet: Schema.Array(Unmet) })
}).annotate({ identifier: "GoalStatusReport" })

export const SetInput = Schema.Struct({ objective: Text, criteria: Schema.optionalKey(Schema.Array(CriterionSpec)) }).annotate({
  identifier: "GoalSetInput"
})
export const AddCriterionInput = Schema.Struct({ scenario: Text, qaChannel: QaChannel, testRef: Text, ...force }).annotate({
  identifier: "GoalAddCriterionInput"
})
export const AddEvidenceInput = Schema.Struct({
  criterionId: SafeId,
  kind: EvidenceKind,
  ref: Text,
  detail: Schema.optionalKey(Schema.String),
  ...force
}).annotate({ identifier: "GoalAddEvidenceInput" })
export const SetCriterionStatusInput = Schema.Struct({ criterionId: SafeId, status: CriterionStatus, ...force }).annotate({
  identifier: "GoalSetCriterionStatusInput"
})
export const SteerInput = Schema.Struct({
  directive: Schema.String,
  kind: SteeringKind,
  evidence: Schema.String,
  rationale: Schema.String,
  criterion: Schema.optionalKey(CriterionSpec),
  ...force
}).annotate({ identifier: "GoalSteerInput" })
export const CheckpointInput = Schema.Struct({ summary: Text, activeCriterion: Schema.optionalKey(SafeId), ...force }).annotate({
  identifier: "GoalCheckpointInput"
})
export const AddBlockerInput = Schema.Struct({ detail: Text, ...force }).annotate({ identifier: "GoalAddBlockerInput" })
export const ResolveBlockerInput = Schema.Struct({ blockerId: SafeId, ...force }).annotate({ identifier: "GoalResolveBlockerInput" })
export const SetGoalStatusInput = Schema.Struct({ status: SettableGoalStatus, ...force }).annotate({ identifier: "GoalSetStatusInput" })
export const CompleteInput = Schema.Struct({ ...force }).annotate({ identifier: "GoalCompleteInput" })

export class GateRefused extends Schema.TaggedError<GateRefused>()(
  "GateRefused",
  { unmet: Schema.Array(Unmet) },
  { httpApiStatus: 409 }
) {}

export class ObjectiveConflict extends Schema.TaggedError<ObjectiveConflict>()(
  "ObjectiveConflict",
  { current: Schema.String, requested: Schema.String },
  { httpApiStatus: 409 }
) {}

export class GoalAlreadyComplete extends Schema.TaggedError<GoalAlreadyComplete>()(
  "GoalAlreadyComplete",
  { goalId: Schema.String },
  { httpApiStatus: 409 }
) {}

export class MalformedState extends Schema.TaggedError<MalformedState>()(
  "MalformedState",
  { file: Schema.String, line: Schema.optionalKey(Schema.Number), reason: Schema.String },
  { httpApiStatus: 409 }
) {}

export class ForceNotAllowed extends Schema.TaggedError<ForceNotAllowed>()("ForceNotAllowed", { goalId: Schema.String }, { httpApiStatus: 403 }) {}

export class SteeringRejected extends Schema.TaggedError<SteeringRejected>()(
  "SteeringRejected",
  { reason: Schema.String, recorded: Schema.Boolean },
  { httpApiStatus: 422 }
) {}

export class UnknownCriterion extends Schema.TaggedError<UnknownCriterion>()(
  "UnknownCriterion",
  { criterionId: Schema.String },
  { httpApiStatus: 404 }
) {}

export class UnknownBlocker extends Schema.TaggedError<UnknownBlocker>()("UnknownBlocker", { blockerId: Schema.String }, { httpApiStatus: 404 }) {}

export class NoActiveGoal extends Schema.TaggedError<NoActiveGoal>()("NoActiveGoal", { sessionId: Schema.String }, { httpApiStatus: 404 }) {}

export class InvalidInput extends Schema.TaggedError<InvalidInput>()("InvalidInput", { reason: Schema.String }, { httpApiStatus: 422 }) {}

export class LockUnavailable extends Schema.TaggedError<LockUnavailable>()(
  "LockUnavailable",
  { lock: Schema.String, reason: Schema.String },
  { httpApiStatus: 503 }
) {}

export class StorageFailure extends Schema.TaggedError<StorageFailure>()(
  "StorageFailure",
  { operation: Schema.String, file: Schema.String, reason: Schema.String, committed: Schema.Boolean },
  { httpApiStatus: 500 }
) {}

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
} as const

export const GoalsErrors = Object.values(GoalsErrorsByTag)

export type GoalsError = InstanceType<(typeof GoalsErrorsByTag)[keyof typeof GoalsErrorsByTag]>

export const GoalSessionQuery = { sessionId: Schema.optionalKey(SafeId) }

/** `GET /goals/snapshot`: the text a host injects every turn, in a JSON object. */
export const GoalSnapshot = Schema.Struct({ snapshot: Schema.String }).annotate({ identifier: "GoalSnapshot" })
