import { Schema } from "effect"
import { GoalStatusReport } from "./Gate.js"
import { Blocker, Checkpoint, Criterion, Evidence, Goal, Steering } from "./Goal.js"
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
  SteerInput
} from "./GoalInputs.js"

/** The Schemas of a goal operation that changes the goal: what the store takes, and what it answers. */
export interface GoalMutationSchemas<Fields extends Schema.Struct.Fields, A> {
  readonly kind: "mutation"
  readonly description: string
  readonly input: Schema.Struct<Fields>
  readonly output: Schema.Codec<A, unknown>
}

/** The Schema of a goal operation that only reads: it takes no input. */
export interface GoalReadSchemas<A> {
  readonly kind: "read"
  readonly description: string
  readonly output: Schema.Codec<A, unknown>
}

const mutation = <Fields extends Schema.Struct.Fields, A>(spec: {
  readonly description: string
  readonly input: Schema.Struct<Fields>
  readonly output: Schema.Codec<A, unknown>
}): GoalMutationSchemas<Fields, A> => ({ kind: "mutation", ...spec })

const read = <A>(description: string, output: Schema.Codec<A, unknown>): GoalReadSchemas<A> => ({ kind: "read", description, output })

/**
 * Every goal operation's Schemas and the description a model reads, and nothing of how the store
 * decides: what a surface over the store (the HTTP API's goal routes, a client) is built from without
 * loading the store. `GOAL_OPERATIONS` adds each mutation's decision to these entries.
 */
export const GOAL_OPERATION_SCHEMAS = {
  set: mutation({
    description:
      "Set the session's objective with optional success criteria ({ scenario, qaChannel, testRef }). A session has one objective; a different one is refused with ObjectiveConflict — add criteria instead — and once the goal is complete with GoalAlreadyComplete: new work goes in a new session.",
    input: SetInput,
    output: Goal
  }),
  addCriterion: mutation({
    description:
      "Add a success criterion: the scenario to verify, its QA channel (http, tmux, browser, computer, cli) and the test that proves it.",
    input: AddCriterionInput,
    output: Criterion
  }),
  addEvidence: mutation({
    description:
      "Attach evidence (red, green, scenario, cleanup or note) to a criterion's current attempt. Completion needs green and scenario evidence from the current attempt; a note never counts.",
    input: AddEvidenceInput,
    output: Evidence
  }),
  setCriterionStatus: mutation({
    description:
      "Set a criterion's status (pending, in_progress, pass, fail, blocked, needs_user_decision). Leaving fail or blocked for in_progress or pending starts a new attempt.",
    input: SetCriterionStatusInput,
    output: Criterion
  }),
  steer: mutation({
    description:
      "Record a steering directive (add_criterion, redirect, narrow_scope, reprioritize, annotate) with its evidence and rationale. Steering can add work or change priorities, never lower the bar: a directive that weakens completion is refused with SteeringRejected, and every refusal is recorded.",
    input: SteerInput,
    output: Steering
  }),
  checkpoint: mutation({
    description: "Record a progress checkpoint, optionally naming the criterion being worked on.",
    input: CheckpointInput,
    output: Checkpoint
  }),
  addBlocker: mutation({
    description: "Open a review blocker; the goal is review_blocked until every blocker is resolved.",
    input: AddBlockerInput,
    output: Blocker
  }),
  resolveBlocker: mutation({
    description: "Resolve a review blocker by id.",
    input: ResolveBlockerInput,
    output: Blocker
  }),
  setGoalStatus: mutation({
    description:
      "Set the goal status (active, review_blocked, needs_user_decision, blocked); a goal that is not active is stalled, and while a review blocker is open it reads review_blocked. Completion goes through complete.",
    input: SetGoalStatusInput,
    output: Goal
  }),
  complete: mutation({
    description:
      "Complete the goal. Refused with GateRefused { unmet } until every criterion passes with current green and scenario evidence, no blocker is open and the goal is not stalled; nothing but evidence opens the gate.",
    input: CompleteInput,
    output: Goal
  }),
  status: read("The goal and its completion gate (passed, and everything unmet).", GoalStatusReport),
  sessions: read("The ids of the separate goal sessions under this root.", Schema.Array(Schema.String)),
  snapshot: read("The short goal summary a host injects each turn (empty when no goal is open).", Schema.String)
}

export type GoalOperationSchemas = typeof GOAL_OPERATION_SCHEMAS
