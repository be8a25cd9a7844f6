import { Result, Schema } from "effect"
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
} from "./Commands.js"
import { GoalStatusReport } from "./Domain.js"
import { InvalidInput } from "./Errors.js"
import { Blocker, Checkpoint, Criterion, Evidence, Goal, Steering } from "./Goal.js"
import type { GoalStoreClient } from "./GoalStoreClient.js"

/**
 * One model-facing goal operation, in the code-mode `Tool` shape: a description, Schemas for the
 * input and output, and `run`. Refusals reject with the store's Schema-backed tagged errors, so a
 * sandbox passes them to the model with their fields (e.g. `GateRefused.unmet`).
 */
export interface GoalTool<I, O> {
  readonly description: string
  readonly input: Schema.Codec<I, I>
  readonly output: Schema.Codec<O, O>
  readonly run: (input: I) => Promise<O>
}

const NoInput = Schema.Struct({})

/**
 * A tool whose `run` takes its input only as its Schema reads it, whoever calls it: what the Schema
 * does not name (a `force` slipped in by a caller that skipped the types) never reaches the store.
 */
const tool = <I, O>(
  description: string,
  input: Schema.Codec<I, I>,
  output: Schema.Codec<O, O>,
  run: (input: I) => Promise<O>
): GoalTool<I, O> => {
  const decode = Schema.decodeUnknownResult(input)
  return {
    description,
    input,
    output,
    run: async (given) => {
      const decoded = decode(given)
      if (Result.isFailure(decoded)) throw new InvalidInput({ reason: decoded.failure.message.replace(/\s+/g, " ") })
      return run(decoded.success)
    }
  }
}

/**
 * The goal operations as a tool namespace for code mode (the litgoal `goal_*` tools), bound to one
 * open store: `await tools.goals.complete({})` and so on. A model is never offered `force`: the
 * inputs are the store's without it, so nothing here can change a complete goal.
 */
export const goalTools = (store: GoalStoreClient) => ({
  set: tool(
    "Set the session's objective with optional success criteria ({ scenario, qaChannel, testRef }). A session has one objective; a different one is refused with ObjectiveConflict — add criteria instead.",
    SetInput,
    Goal,
    (input) => store.set(input)
  ),
  addCriterion: tool(
    "Add a success criterion: the scenario to verify, its QA channel (http, tmux, browser, computer, cli) and the test that proves it.",
    withoutForce(AddCriterionInput),
    Criterion,
    (input) => store.addCriterion(input)
  ),
  addEvidence: tool(
    "Attach evidence (red, green, scenario, cleanup or note) to a criterion's current attempt. Completion needs green and scenario evidence from the current attempt; a note never counts.",
    withoutForce(AddEvidenceInput),
    Evidence,
    (input) => store.addEvidence(input)
  ),
  setCriterionStatus: tool(
    "Set a criterion's status (pending, in_progress, pass, fail, blocked, needs_user_decision). Leaving fail or blocked for in_progress or pending starts a new attempt.",
    withoutForce(SetCriterionStatusInput),
    Criterion,
    (input) => store.setCriterionStatus(input)
  ),
  steer: tool(
    "Record a steering directive (add_criterion, redirect, narrow_scope, reprioritize, annotate) with its evidence and rationale. Steering can add work or change priorities, never lower the bar: a directive that weakens completion is refused with SteeringRejected, and every refusal is recorded.",
    withoutForce(SteerInput),
    Steering,
    (input) => store.steer(input)
  ),
  checkpoint: tool(
    "Record a progress checkpoint, optionally naming the criterion being worked on.",
    withoutForce(CheckpointInput),
    Checkpoint,
    (input) => store.checkpoint(input)
  ),
  addBlocker: tool(
    "Open a review blocker; the goal is review_blocked until every blocker is resolved.",
    withoutForce(AddBlockerInput),
    Blocker,
    (input) => store.addBlocker(input)
  ),
  resolveBlocker: tool("Resolve a review blocker by id.", withoutForce(ResolveBlockerInput), Blocker, (input) => store.resolveBlocker(input)),
  setGoalStatus: tool(
    "Set the goal status (active, review_blocked, needs_user_decision, blocked); a goal that is not active is stalled, and while a review blocker is open it reads review_blocked. Completion goes through complete.",
    withoutForce(SetGoalStatusInput),
    Goal,
    (input) => store.setGoalStatus(input)
  ),
  status: tool("The goal and its completion gate (passed, and everything unmet).", NoInput, GoalStatusReport, () => store.status()),
  complete: tool(
    "Complete the goal. Refused with GateRefused { unmet } until every criterion passes with current green and scenario evidence, no blocker is open and the goal is not stalled; nothing but evidence opens the gate.",
    withoutForce(CompleteInput),
    Goal,
    (input) => store.complete(input)
  ),
  sessions: tool("The ids of the separate goal sessions under this root.", NoInput, Schema.Array(Schema.String), () => store.sessions()),
  snapshot: tool("The short goal summary a host injects each turn (empty when no goal is open).", NoInput, Schema.String, () => store.snapshot())
})

export type GoalTools = ReturnType<typeof goalTools>
