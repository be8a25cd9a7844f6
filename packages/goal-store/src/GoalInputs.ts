import { Schema } from "effect"
import { CriterionSpec, CriterionStatus, EvidenceKind, QaChannel, SafeId, SettableGoalStatus, SteeringKind, Text } from "./Goal.js"

/**
 * The inputs of the goal operations, one object per call. They are Schemas because they arrive from
 * untrusted places (a command line, an HTTP body, model-written code) and are decoded at the edge.
 *
 * `force` only ever lets a change through on a goal that is already complete — it never opens the
 * gate — and only on a store an operator opened (`GoalStoreOptions.operator`); the ledger records
 * who forced it. Model-facing surfaces take the same inputs without `force` (`withoutForce`).
 */
const force = {
  force: Schema.optionalKey(
    Schema.Boolean.annotate({
      description:
        "Operator only: change a goal that is already complete (recorded with the operator's name). Never opens the gate; refused with ForceNotAllowed by a store opened without an operator."
    })
  )
}

export const SetInput = Schema.Struct({ objective: Text, criteria: Schema.optionalKey(Schema.Array(CriterionSpec)) })
export type SetInput = typeof SetInput.Type

export const AddCriterionInput = Schema.Struct({ scenario: Text, qaChannel: QaChannel, testRef: Text, ...force })
export type AddCriterionInput = typeof AddCriterionInput.Type

export const AddEvidenceInput = Schema.Struct({
  criterionId: SafeId,
  kind: EvidenceKind,
  ref: Text,
  detail: Schema.optionalKey(Schema.String),
  ...force
})
export type AddEvidenceInput = typeof AddEvidenceInput.Type

export const SetCriterionStatusInput = Schema.Struct({ criterionId: SafeId, status: CriterionStatus, ...force })
export type SetCriterionStatusInput = typeof SetCriterionStatusInput.Type

/**
 * `directive`, `evidence` and `rationale` are checked by the steering rules, so a blank one is a
 * steering refusal, recorded like every other.
 */
export const SteerInput = Schema.Struct({
  directive: Schema.String,
  kind: SteeringKind,
  evidence: Schema.String,
  rationale: Schema.String,
  /** Required for `add_criterion`, refused for every other kind. */
  criterion: Schema.optionalKey(CriterionSpec),
  ...force
})
export type SteerInput = typeof SteerInput.Type

export const CheckpointInput = Schema.Struct({ summary: Text, activeCriterion: Schema.optionalKey(SafeId), ...force })
export type CheckpointInput = typeof CheckpointInput.Type

export const AddBlockerInput = Schema.Struct({ detail: Text, ...force })
export type AddBlockerInput = typeof AddBlockerInput.Type

export const ResolveBlockerInput = Schema.Struct({ blockerId: SafeId, ...force })
export type ResolveBlockerInput = typeof ResolveBlockerInput.Type

export const SetGoalStatusInput = Schema.Struct({ status: SettableGoalStatus, ...force })
export type SetGoalStatusInput = typeof SetGoalStatusInput.Type

/** With `force`, an operator completes again a goal that is already complete; the gate must pass either way. */
export const CompleteInput = Schema.Struct({ ...force })
export type CompleteInput = typeof CompleteInput.Type

/** An input Schema as a model is offered it: the same fields without `force`. */
export const withoutForce = <Fields extends Schema.Struct.Fields>(input: Schema.Struct<Fields>): Schema.Struct<Omit<Fields, "force">> => {
  const { force: _force, ...fields } = input.fields
  return Schema.Struct(fields)
}
