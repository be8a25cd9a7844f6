import { Schema } from "effect"

/** How a criterion is verified: the channel its QA scenario runs through. */
export const QaChannel = Schema.Literals(["http", "tmux", "browser", "computer", "cli"])
export type QaChannel = typeof QaChannel.Type

/** `needs_user_decision`: the criterion cannot go on without an answer only the user can give. */
export const CriterionStatus = Schema.Literals(["pending", "in_progress", "pass", "fail", "blocked", "needs_user_decision"])
export type CriterionStatus = typeof CriterionStatus.Type

export const GoalStatus = Schema.Literals(["active", "review_blocked", "needs_user_decision", "blocked", "complete"])
export type GoalStatus = typeof GoalStatus.Type

/** The statuses `setGoalStatus` may set; `complete` is reachable only through the gate. */
export const SettableGoalStatus = Schema.Literals(["active", "review_blocked", "needs_user_decision", "blocked"])
export type SettableGoalStatus = typeof SettableGoalStatus.Type

/** Only `green` and `scenario` count for the gate; `note` records an observation and never satisfies it. */
export const EvidenceKind = Schema.Literals(["red", "green", "scenario", "cleanup", "note"])
export type EvidenceKind = typeof EvidenceKind.Type

export const SteeringKind = Schema.Literals(["add_criterion", "redirect", "narrow_scope", "reprioritize", "annotate"])
export type SteeringKind = typeof SteeringKind.Type

/**
 * An identifier that is safe as a single path segment: ids name directories such as
 * `evidence/<criterion-id>/` and `sessions/<id>/`, so nothing that could escape them is accepted.
 */
export const SafeId = Schema.String.check(
  Schema.isPattern(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, {
    description: "an id of 1-64 letters, digits, '-' or '_', starting with a letter or digit"
  })
)

/** Free text that must say something: at least one non-blank character. */
export const Text = Schema.String.check(Schema.isPattern(/\S/, { description: "a non-blank text" }))

const Count = Schema.Number.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(0))
const Attempt = Schema.Number.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(1))

/** What a new criterion is made of. */
export const CriterionSpec = Schema.Struct({
  scenario: Text,
  qaChannel: QaChannel,
  testRef: Text
})
export type CriterionSpec = typeof CriterionSpec.Type

export const Evidence = Schema.Struct({
  id: SafeId,
  criterionId: SafeId,
  kind: EvidenceKind,
  ref: Text,
  detail: Schema.optionalKey(Schema.String),
  /** The criterion attempt this evidence belongs to; only current-attempt evidence counts for the gate. */
  attempt: Attempt,
  at: Schema.String
}).annotate({ identifier: "Evidence" })
export type Evidence = typeof Evidence.Type

export const Criterion = Schema.Struct({
  id: SafeId,
  scenario: Text,
  qaChannel: QaChannel,
  testRef: Text,
  status: CriterionStatus,
  attempt: Attempt,
  evidence: Schema.Array(Evidence)
}).annotate({ identifier: "Criterion" })
export type Criterion = typeof Criterion.Type

export const Checkpoint = Schema.Struct({
  id: SafeId,
  summary: Text,
  activeCriterion: Schema.optionalKey(SafeId),
  at: Schema.String
}).annotate({ identifier: "Checkpoint" })
export type Checkpoint = typeof Checkpoint.Type

export const Steering = Schema.Struct({
  id: SafeId,
  kind: SteeringKind,
  directive: Text,
  evidence: Text,
  rationale: Text,
  /** The criterion an `add_criterion` directive added. */
  criterionId: Schema.optionalKey(SafeId),
  at: Schema.String
}).annotate({ identifier: "Steering" })
export type Steering = typeof Steering.Type

export const Blocker = Schema.Struct({
  id: SafeId,
  detail: Text,
  status: Schema.Literals(["open", "resolved"]),
  openedAt: Schema.String,
  resolvedAt: Schema.optionalKey(Schema.String)
}).annotate({ identifier: "Blocker" })
export type Blocker = typeof Blocker.Type

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
export type Goal = typeof Goal.Type

/** The next number of each id series; ids are allocated under the lock from these and never reused. */
export const IdCounters = Schema.Struct({
  goal: Count,
  criterion: Count,
  evidence: Count,
  checkpoint: Count,
  steering: Count,
  blocker: Count
})
export type IdCounters = typeof IdCounters.Type

/** One session's aggregate: what `fold(ledger)` produces. `seq` is the last event applied. */
export const GoalState = Schema.Struct({
  seq: Count,
  counters: IdCounters,
  goal: Schema.NullOr(Goal)
})
export type GoalState = typeof GoalState.Type

export const emptyState: GoalState = {
  seq: 0,
  counters: { goal: 0, criterion: 0, evidence: 0, checkpoint: 0, steering: 0, blocker: 0 },
  goal: null
}
