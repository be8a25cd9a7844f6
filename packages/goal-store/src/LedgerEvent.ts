import { Schema } from "effect"
import { Unmet } from "./Gate.js"
import {
  CriterionSpec,
  CriterionStatus,
  EvidenceKind,
  QaChannel,
  SafeId,
  SettableGoalStatus,
  SteeringKind,
  Text
} from "./Goal.js"

/** The schema id every ledger line carries; a reader refuses lines of any other version. */
export const LEDGER_SCHEMA = "armory.goal.ledger/v1"

const Seq = Schema.Number.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(1))
const Attempt = Schema.Number.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(1))

/**
 * The fields every event has. `forced` marks a change an operator made to a complete goal with
 * `force`, and `forcedBy` names that operator (ledgers written before it was recorded have `forced` alone).
 */
const envelope = {
  schema: Schema.Literal(LEDGER_SCHEMA),
  seq: Seq,
  at: Schema.String,
  forced: Schema.optionalKey(Schema.Boolean),
  forcedBy: Schema.optionalKey(Text)
}

const NewCriterion = Schema.Struct({ id: SafeId, scenario: Text, qaChannel: QaChannel, testRef: Text })
export type NewCriterion = typeof NewCriterion.Type

export const GoalCreated = Schema.Struct({
  ...envelope,
  kind: Schema.Literal("goal_created"),
  goal: Schema.Struct({ id: SafeId, objective: Text, criteria: Schema.Array(NewCriterion) })
})
export const CriterionAdded = Schema.Struct({ ...envelope, kind: Schema.Literal("criterion_added"), criterion: NewCriterion })
export const CriterionStatusChanged = Schema.Struct({
  ...envelope,
  kind: Schema.Literal("criterion_status"),
  criterionId: SafeId,
  status: CriterionStatus
})
/** A criterion left fail/blocked for in_progress/pending: a new attempt starts. */
export const CriterionRetried = Schema.Struct({
  ...envelope,
  kind: Schema.Literal("criterion_retry"),
  criterionId: SafeId,
  status: CriterionStatus,
  attempt: Attempt
})
export const EvidenceAdded = Schema.Struct({
  ...envelope,
  kind: Schema.Literal("evidence_added"),
  evidence: Schema.Struct({
    id: SafeId,
    criterionId: SafeId,
    kind: EvidenceKind,
    ref: Text,
    detail: Schema.optionalKey(Schema.String),
    attempt: Attempt
  })
})
export const CheckpointRecorded = Schema.Struct({
  ...envelope,
  kind: Schema.Literal("checkpoint"),
  checkpoint: Schema.Struct({ id: SafeId, summary: Text, activeCriterion: Schema.optionalKey(SafeId) })
})
export const Steered = Schema.Struct({
  ...envelope,
  kind: Schema.Literal("steer"),
  steering: Schema.Struct({
    id: SafeId,
    kind: SteeringKind,
    directive: Text,
    evidence: Text,
    rationale: Text,
    criterionId: Schema.optionalKey(SafeId)
  }),
  /** Only `add_criterion` carries one: the single structural change steering may make. */
  criterion: Schema.optionalKey(NewCriterion)
})
/** A refused steering directive, as it was asked for (with the criterion an `add_criterion` carried) and why it was refused. */
export const SteeringRefused = Schema.Struct({
  ...envelope,
  kind: Schema.Literal("steering_rejected"),
  directive: Schema.String,
  steeringKind: SteeringKind,
  evidence: Schema.String,
  rationale: Schema.String,
  criterion: Schema.optionalKey(CriterionSpec),
  reason: Schema.String
})
export const ReviewBlockerOpened = Schema.Struct({
  ...envelope,
  kind: Schema.Literal("review_blocker"),
  blocker: Schema.Struct({ id: SafeId, detail: Text })
})
export const ReviewBlockerResolved = Schema.Struct({
  ...envelope,
  kind: Schema.Literal("review_blocker_resolved"),
  blockerId: SafeId
})
export const GoalStatusChanged = Schema.Struct({
  ...envelope,
  kind: Schema.Literal("goal_status"),
  status: SettableGoalStatus
})
/**
 * The gate passed. `unmet` is always empty now; ledgers written when `force` could override the gate
 * list there what was unmet.
 */
export const GoalCompleted = Schema.Struct({
  ...envelope,
  kind: Schema.Literal("goal_completed"),
  unmet: Schema.Array(Unmet)
})

/** One line of `ledger.jsonl`: the full payload of a change, keyed on `kind`. */
export const LedgerEvent = Schema.Union([
  GoalCreated,
  CriterionAdded,
  CriterionStatusChanged,
  CriterionRetried,
  EvidenceAdded,
  CheckpointRecorded,
  Steered,
  SteeringRefused,
  ReviewBlockerOpened,
  ReviewBlockerResolved,
  GoalStatusChanged,
  GoalCompleted
])
export type LedgerEvent = typeof LedgerEvent.Type
export type LedgerEventKind = LedgerEvent["kind"]

/** The event schema of each kind, so a reader decodes a line against one member only. */
export const LEDGER_EVENT_BY_KIND = {
  goal_created: GoalCreated,
  criterion_added: CriterionAdded,
  criterion_status: CriterionStatusChanged,
  criterion_retry: CriterionRetried,
  evidence_added: EvidenceAdded,
  checkpoint: CheckpointRecorded,
  steer: Steered,
  steering_rejected: SteeringRefused,
  review_blocker: ReviewBlockerOpened,
  review_blocker_resolved: ReviewBlockerResolved,
  goal_status: GoalStatusChanged,
  goal_completed: GoalCompleted
} as const satisfies { readonly [K in LedgerEventKind]: Schema.Top }

/** An event without its position: what a decision produces before the store numbers it. */
export type EventBody = LedgerEvent extends infer E ? (E extends LedgerEvent ? Omit<E, "schema" | "seq" | "at"> : never) : never
