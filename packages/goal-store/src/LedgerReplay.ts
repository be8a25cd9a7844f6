import { Result } from "effect"
import { type FoldFailure, fold } from "./GoalRules.js"
import { emptyState, type GoalState } from "./Goal.js"
import { decideCommand, type GoalCommand } from "./GoalOperations.js"
import { encodeLedgerLine } from "./Ledger.js"
import type { LedgerEvent } from "./LedgerEvent.js"

const forceOf = (forced: boolean | undefined): { readonly force?: true } => (forced === true ? { force: true } : {})

/** The command that produces `event`: what was asked for, with `force` when the event was forced. */
export const commandOf = (event: LedgerEvent): GoalCommand => {
  switch (event.kind) {
    case "goal_created":
      return {
        operation: "set",
        input: {
          objective: event.goal.objective,
          criteria: event.goal.criteria.map(({ scenario, qaChannel, testRef }) => ({ scenario, qaChannel, testRef }))
        }
      }
    case "criterion_added": {
      const { scenario, qaChannel, testRef } = event.criterion
      return { operation: "addCriterion", input: { scenario, qaChannel, testRef, ...forceOf(event.forced) } }
    }
    case "criterion_status":
    case "criterion_retry":
      return {
        operation: "setCriterionStatus",
        input: { criterionId: event.criterionId, status: event.status, ...forceOf(event.forced) }
      }
    case "evidence_added": {
      const { criterionId, kind, ref, detail } = event.evidence
      return {
        operation: "addEvidence",
        input: { criterionId, kind, ref, ...(detail === undefined ? {} : { detail }), ...forceOf(event.forced) }
      }
    }
    case "checkpoint": {
      const { summary, activeCriterion } = event.checkpoint
      return {
        operation: "checkpoint",
        input: { summary, ...(activeCriterion === undefined ? {} : { activeCriterion }), ...forceOf(event.forced) }
      }
    }
    case "steer": {
      const { directive, kind, evidence, rationale } = event.steering
      const criterion = event.criterion
      return {
        operation: "steer",
        input: {
          directive,
          kind,
          evidence,
          rationale,
          ...(criterion === undefined
            ? {}
            : { criterion: { scenario: criterion.scenario, qaChannel: criterion.qaChannel, testRef: criterion.testRef } }),
          ...forceOf(event.forced)
        }
      }
    }
    case "steering_rejected":
      return {
        operation: "steer",
        input: {
          directive: event.directive,
          kind: event.steeringKind,
          evidence: event.evidence,
          rationale: event.rationale,
          ...(event.criterion === undefined ? {} : { criterion: event.criterion }),
          ...forceOf(event.forced)
        }
      }
    case "review_blocker":
      return { operation: "addBlocker", input: { detail: event.blocker.detail, ...forceOf(event.forced) } }
    case "review_blocker_resolved":
      return { operation: "resolveBlocker", input: { blockerId: event.blockerId, ...forceOf(event.forced) } }
    case "goal_status":
      return { operation: "setGoalStatus", input: { status: event.status, ...forceOf(event.forced) } }
    case "goal_completed":
      return { operation: "complete", input: forceOf(event.forced) }
  }
}

/**
 * The instant an event was stamped with, when it is the form the stores stamp (`toISOString()` of a
 * millisecond clock): only then can a store that takes its time from a clock write it again.
 */
export const eventMillis = (at: string): number | undefined => {
  const millis = Date.parse(at)
  return Number.isFinite(millis) && new Date(millis).toISOString() === at ? millis : undefined
}

/** One replayed event: the command that decides it and the state after it. */
export interface ReplayStep {
  readonly event: LedgerEvent
  readonly command: GoalCommand
  readonly after: GoalState
}

/**
 * Checks that `event` is exactly what the domain decides at that point: its command, decided against
 * `state` at the event's own time (and, for a forced event, by the operator it names), records the
 * same event byte for byte (ids, attempts, refusal reasons, `forced` and `forcedBy`).
 */
export const replayEvent = (state: GoalState, event: LedgerEvent, sessionId: string): Result.Result<ReplayStep, string> => {
  if (eventMillis(event.at) === undefined) {
    return Result.fail(`timestamp ${JSON.stringify(event.at)} is not an ISO-8601 UTC instant with milliseconds`)
  }
  const command = commandOf(event)
  const decision = decideCommand(state, { now: event.at, sessionId, operator: event.forcedBy }, command)
  const recorded = decision._tag === "Commit" ? decision.event : decision._tag === "Refuse" ? decision.record : undefined
  if (recorded === undefined) {
    return Result.fail(
      decision._tag === "Refuse"
        ? `the domain refuses this ${event.kind} here (${decision.error._tag}: ${decision.error.message})`
        : `the domain records no ${event.kind} here: the state already holds it`
    )
  }
  if (encodeLedgerLine(recorded) !== encodeLedgerLine(event)) {
    return Result.fail(`the domain decides a different ${recorded.kind} event at sequence ${recorded.seq} here`)
  }
  return Result.mapBoth(fold([event], state), {
    onFailure: (failure) => failure.reason,
    onSuccess: (after) => ({ event, command, after })
  })
}

/**
 * Replays a whole ledger through the domain from the empty state: every event must follow the one
 * before it and be what the domain decides there.
 */
export const replayLedger = (
  events: Iterable<LedgerEvent>,
  sessionId: string
): Result.Result<ReadonlyArray<ReplayStep>, FoldFailure> => {
  const steps: Array<ReplayStep> = []
  let state = emptyState
  for (const event of events) {
    const step = replayEvent(state, event, sessionId)
    if (Result.isFailure(step)) return Result.fail({ seq: event.seq, reason: step.failure })
    steps.push(step.success)
    state = step.success.after
  }
  return Result.succeed(steps)
}
