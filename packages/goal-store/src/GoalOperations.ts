import type { Schema } from "effect"
import type { GoalState } from "./Goal.js"
import { withoutForce } from "./GoalInputs.js"
import { GOAL_OPERATION_SCHEMAS, type GoalMutationSchemas, type GoalReadSchemas } from "./GoalOperationSchemas.js"
import {
  type DecideContext,
  decideAddBlocker,
  decideAddCriterion,
  decideAddEvidence,
  decideCheckpoint,
  decideComplete,
  decideResolveBlocker,
  decideSetCriterionStatus,
  decideSetGoalStatus,
  decideSet,
  decideSteer,
  type Decision
} from "./GoalRules.js"
import type { LedgerEventKind } from "./LedgerEvent.js"

/**
 * A goal operation that changes the goal: the one event it appends is what `decide` answers. `input`
 * is what the store takes (an operator may add `force`); `modelInput` is what a model is offered,
 * the same fields without `force`.
 */
export interface GoalMutation<Input extends Schema.Top, ModelInput extends Schema.Top, A> {
  readonly kind: "mutation"
  readonly description: string
  readonly input: Input
  readonly modelInput: ModelInput
  readonly output: Schema.Codec<A, unknown>
  readonly decide: (state: GoalState, context: DecideContext, input: Input["Type"]) => Decision<A>
  /** The ledger kinds its event may have. */
  readonly records: ReadonlyArray<LedgerEventKind>
}

/** A goal operation that only reads: it takes no input. */
export type GoalRead<A> = GoalReadSchemas<A>

const withDecision = <Fields extends Schema.Struct.Fields, A>(
  schemas: GoalMutationSchemas<Fields, A>,
  decide: (state: GoalState, context: DecideContext, input: Schema.Struct<Fields>["Type"]) => Decision<A>,
  records: ReadonlyArray<LedgerEventKind>
): GoalMutation<Schema.Struct<Fields>, Schema.Struct<Omit<Fields, "force">>, A> => ({
  ...schemas,
  modelInput: withoutForce(schemas.input),
  decide,
  records
})

/**
 * Every goal operation, once: the Effect service, the Promise client, the model-facing tools, the
 * ledger replay and the surfaces over them are derived from this table, so adding an operation is
 * one entry in `GOAL_OPERATION_SCHEMAS` and its decision here (and its `decide` in the domain).
 */
export const GOAL_OPERATIONS = {
  set: withDecision(GOAL_OPERATION_SCHEMAS.set, decideSet, ["goal_created"]),
  addCriterion: withDecision(GOAL_OPERATION_SCHEMAS.addCriterion, decideAddCriterion, ["criterion_added"]),
  addEvidence: withDecision(GOAL_OPERATION_SCHEMAS.addEvidence, decideAddEvidence, ["evidence_added"]),
  setCriterionStatus: withDecision(GOAL_OPERATION_SCHEMAS.setCriterionStatus, decideSetCriterionStatus, ["criterion_status", "criterion_retry"]),
  steer: withDecision(GOAL_OPERATION_SCHEMAS.steer, decideSteer, ["steer", "steering_rejected"]),
  checkpoint: withDecision(GOAL_OPERATION_SCHEMAS.checkpoint, decideCheckpoint, ["checkpoint"]),
  addBlocker: withDecision(GOAL_OPERATION_SCHEMAS.addBlocker, decideAddBlocker, ["review_blocker"]),
  resolveBlocker: withDecision(GOAL_OPERATION_SCHEMAS.resolveBlocker, decideResolveBlocker, ["review_blocker_resolved"]),
  setGoalStatus: withDecision(GOAL_OPERATION_SCHEMAS.setGoalStatus, decideSetGoalStatus, ["goal_status"]),
  complete: withDecision(GOAL_OPERATION_SCHEMAS.complete, decideComplete, ["goal_completed"]),
  status: GOAL_OPERATION_SCHEMAS.status,
  sessions: GOAL_OPERATION_SCHEMAS.sessions,
  snapshot: GOAL_OPERATION_SCHEMAS.snapshot
} satisfies { readonly [N in keyof typeof GOAL_OPERATION_SCHEMAS]: unknown }

export type GoalOperations = typeof GOAL_OPERATIONS
export type GoalOperationName = keyof GoalOperations

/** The operations that change the goal, and those that only read. */
export type GoalMutationName = {
  readonly [N in GoalOperationName]: GoalOperations[N] extends { readonly kind: "mutation" } ? N : never
}[GoalOperationName]
export type GoalReadName = Exclude<GoalOperationName, GoalMutationName>

type EntryOf<N extends GoalMutationName> = Extract<GoalOperations[N], { readonly kind: "mutation" }>
export type InputOf<N extends GoalMutationName> = N extends GoalMutationName ? EntryOf<N>["input"]["Type"] : never
/** What a model may pass: the input without `force`. */
export type ModelInputOf<N extends GoalMutationName> = N extends GoalMutationName ? EntryOf<N>["modelInput"]["Type"] : never
export type OutputOf<N extends GoalOperationName> = N extends GoalOperationName ? Schema.Schema.Type<GoalOperations[N]["output"]> : never

export const GOAL_OPERATION_NAMES = Object.keys(GOAL_OPERATIONS) as ReadonlyArray<GoalOperationName>

export const isMutationName = (name: GoalOperationName): name is GoalMutationName => GOAL_OPERATIONS[name].kind === "mutation"

/**
 * The table's entry for a mutation, typed by its name. TypeScript cannot follow a generic name to
 * its own entry's types, so the lookup is asserted here, once, and nowhere else.
 */
export const mutationOf = <N extends GoalMutationName>(
  name: N
): GoalMutation<Schema.Codec<InputOf<N>, unknown>, Schema.Codec<ModelInputOf<N>, unknown>, OutputOf<N>> =>
  GOAL_OPERATIONS[name] as unknown as GoalMutation<Schema.Codec<InputOf<N>, unknown>, Schema.Codec<ModelInputOf<N>, unknown>, OutputOf<N>>

/** A goal operation and its input: what a caller asked for when the domain decided an event. */
export type GoalCommand = { readonly [N in GoalMutationName]: { readonly operation: N; readonly input: InputOf<N> } }[GoalMutationName]

/** Runs the domain's decision for a command. */
export const decideCommand = (state: GoalState, context: DecideContext, command: GoalCommand): Decision<unknown> => {
  const decide = <N extends GoalMutationName>(operation: N, input: InputOf<N>): Decision<unknown> =>
    mutationOf(operation).decide(state, context, input)
  return decide(command.operation, command.input)
}
