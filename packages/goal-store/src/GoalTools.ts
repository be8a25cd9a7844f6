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
  SteerInput
} from "./Commands.js"
import { GoalStatusReport } from "./Domain.js"
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

const tool = <I, O>(
  description: string,
  input: Schema.Codec<I, I>,
  output: Schema.Codec<O, O>,
  run: (input: I) => Promise<O>
): GoalTool<I, O> => ({ description, input, output, run })

/**
 * The goal operations as a tool namespace for code mode (the litgoal `goal_*` tools), bound to one
 * open store: `await tools.goals.complete({})` and so on.
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
    AddCriterionInput,
    Criterion,
    (input) => store.addCriterion(input)
  ),
  addEvidence: tool(
    "Attach evidence (red, green, scenario or cleanup) to a criterion's current attempt. Completion needs green and scenario evidence from the current attempt.",
    AddEvidenceInput,
    Evidence,
    (input) => store.addEvidence(input)
  ),
  setCriterionStatus: tool(
    "Set a criterion's status (pending, in_progress, pass, fail, blocked). Leaving fail or blocked for in_progress or pending starts a new attempt.",
    SetCriterionStatusInput,
    Criterion,
    (input) => store.setCriterionStatus(input)
  ),
  steer: tool(
    "Record a steering directive (add_criterion, redirect, narrow_scope, reprioritize, annotate) with its evidence and rationale. Directives that weaken completion are refused with SteeringRejected and recorded.",
    SteerInput,
    Steering,
    (input) => store.steer(input)
  ),
  checkpoint: tool(
    "Record a progress checkpoint, optionally naming the criterion being worked on.",
    CheckpointInput,
    Checkpoint,
    (input) => store.checkpoint(input)
  ),
  addBlocker: tool(
    "Open a review blocker; the goal is review_blocked until every blocker is resolved.",
    AddBlockerInput,
    Blocker,
    (input) => store.addBlocker(input)
  ),
  resolveBlocker: tool("Resolve a review blocker by id.", ResolveBlockerInput, Blocker, (input) => store.resolveBlocker(input)),
  setGoalStatus: tool(
    "Set the goal status (active, review_blocked, needs_user_decision, blocked); completion goes through complete.",
    SetGoalStatusInput,
    Goal,
    (input) => store.setGoalStatus(input)
  ),
  status: tool("The goal and its completion gate (passed, and everything unmet).", NoInput, GoalStatusReport, () => store.status()),
  complete: tool(
    "Complete the goal. Refused with GateRefused { unmet } until every criterion passes with current green and scenario evidence and no blocker is open.",
    CompleteInput,
    Goal,
    (input) => store.complete(input)
  ),
  sessions: tool("The ids of the separate goal sessions under this root.", NoInput, Schema.Array(Schema.String), () => store.sessions()),
  snapshot: tool("The short goal summary a host injects each turn.", NoInput, Schema.String, () => store.snapshot())
})

export type GoalTools = ReturnType<typeof goalTools>
