import { Schema } from "effect"
import {
  AddBlockerInput,
  AddCriterionInput,
  AddEvidenceInput,
  CheckpointInput,
  CompleteInput,
  ResolveBlockerInput,
  SetCriterionStatusInput,
  SetGoalStatusInput,
  SetInput,
  SteerInput,
  withoutForce
} from "./GoalInputs.js"
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
  type Decision,
  GoalStatusReport
} from "./GoalRules.js"
import { Blocker, Checkpoint, Criterion, Evidence, Goal, type GoalState, Steering } from "./Goal.js"
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
export interface GoalRead<A> {
  readonly kind: "read"
  readonly description: string
  readonly output: Schema.Codec<A, unknown>
}

const mutation = <Fields extends Schema.Struct.Fields, A>(spec: {
  readonly description: string
  readonly input: Schema.Struct<Fields>
  readonly output: Schema.Codec<A, unknown>
  readonly decide: (state: GoalState, context: DecideContext, input: Schema.Struct<Fields>["Type"]) => Decision<A>
  readonly records: ReadonlyArray<LedgerEventKind>
}): GoalMutation<Schema.Struct<Fields>, Schema.Struct<Omit<Fields, "force">>, A> => ({
  kind: "mutation",
  description: spec.description,
  input: spec.input,
  modelInput: withoutForce(spec.input),
  output: spec.output,
  decide: spec.decide,
  records: spec.records
})

const read = <A>(description: string, output: Schema.Codec<A, unknown>): GoalRead<A> => ({ kind: "read", description, output })

/**
 * Every goal operation, once: the Effect service, the Promise client, the model-facing tools, the
 * ledger replay and the surfaces over them are derived from this table, so adding an operation is
 * one entry here (and its `decide` in the domain). The descriptions are what a model reads.
 */
export const GOAL_OPERATIONS = {
  set: mutation({
    description:
      "Set the session's objective with optional success criteria ({ scenario, qaChannel, testRef }). A session has one objective; a different one is refused with ObjectiveConflict — add criteria instead — and once the goal is complete with GoalAlreadyComplete: new work goes in a new session.",
    input: SetInput,
    output: Goal,
    decide: decideSet,
    records: ["goal_created"]
  }),
  addCriterion: mutation({
    description:
      "Add a success criterion: the scenario to verify, its QA channel (http, tmux, browser, computer, cli) and the test that proves it.",
    input: AddCriterionInput,
    output: Criterion,
    decide: decideAddCriterion,
    records: ["criterion_added"]
  }),
  addEvidence: mutation({
    description:
      "Attach evidence (red, green, scenario, cleanup or note) to a criterion's current attempt. Completion needs green and scenario evidence from the current attempt; a note never counts.",
    input: AddEvidenceInput,
    output: Evidence,
    decide: decideAddEvidence,
    records: ["evidence_added"]
  }),
  setCriterionStatus: mutation({
    description:
      "Set a criterion's status (pending, in_progress, pass, fail, blocked, needs_user_decision). Leaving fail or blocked for in_progress or pending starts a new attempt.",
    input: SetCriterionStatusInput,
    output: Criterion,
    decide: decideSetCriterionStatus,
    records: ["criterion_status", "criterion_retry"]
  }),
  steer: mutation({
    description:
      "Record a steering directive (add_criterion, redirect, narrow_scope, reprioritize, annotate) with its evidence and rationale. Steering can add work or change priorities, never lower the bar: a directive that weakens completion is refused with SteeringRejected, and every refusal is recorded.",
    input: SteerInput,
    output: Steering,
    decide: decideSteer,
    records: ["steer", "steering_rejected"]
  }),
  checkpoint: mutation({
    description: "Record a progress checkpoint, optionally naming the criterion being worked on.",
    input: CheckpointInput,
    output: Checkpoint,
    decide: decideCheckpoint,
    records: ["checkpoint"]
  }),
  addBlocker: mutation({
    description: "Open a review blocker; the goal is review_blocked until every blocker is resolved.",
    input: AddBlockerInput,
    output: Blocker,
    decide: decideAddBlocker,
    records: ["review_blocker"]
  }),
  resolveBlocker: mutation({
    description: "Resolve a review blocker by id.",
    input: ResolveBlockerInput,
    output: Blocker,
    decide: decideResolveBlocker,
    records: ["review_blocker_resolved"]
  }),
  setGoalStatus: mutation({
    description:
      "Set the goal status (active, review_blocked, needs_user_decision, blocked); a goal that is not active is stalled, and while a review blocker is open it reads review_blocked. Completion goes through complete.",
    input: SetGoalStatusInput,
    output: Goal,
    decide: decideSetGoalStatus,
    records: ["goal_status"]
  }),
  complete: mutation({
    description:
      "Complete the goal. Refused with GateRefused { unmet } until every criterion passes with current green and scenario evidence, no blocker is open and the goal is not stalled; nothing but evidence opens the gate.",
    input: CompleteInput,
    output: Goal,
    decide: decideComplete,
    records: ["goal_completed"]
  }),
  status: read("The goal and its completion gate (passed, and everything unmet).", GoalStatusReport),
  sessions: read("The ids of the separate goal sessions under this root.", Schema.Array(Schema.String)),
  snapshot: read("The short goal summary a host injects each turn (empty when no goal is open).", Schema.String)
}

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
