import { Schema } from "effect"
import { CriterionStatus, Goal, GoalStatus } from "./Goal.js"

/** What a criterion still owes before it can count as met. */
export const Owed = Schema.Literals(["pass", "green", "scenario"])
export type Owed = typeof Owed.Type

/** One reason the completion gate is closed. */
export const Unmet = Schema.Union([
  Schema.Struct({
    kind: Schema.Literal("criterion"),
    criterionId: Schema.String,
    scenario: Schema.String,
    status: CriterionStatus,
    attempt: Schema.Number,
    owes: Schema.Array(Owed)
  }),
  Schema.Struct({ kind: Schema.Literal("blocker"), blockerId: Schema.String, detail: Schema.String }),
  Schema.Struct({ kind: Schema.Literal("goal"), status: GoalStatus, reason: Schema.String })
]).annotate({ identifier: "Unmet" })
export type Unmet = typeof Unmet.Type

export const GateStatus = Schema.Struct({ passed: Schema.Boolean, unmet: Schema.Array(Unmet) })
export type GateStatus = typeof GateStatus.Type

/** What `status` answers: the goal (or none yet) and the gate over it. */
export const GoalStatusReport = Schema.Struct({ goal: Schema.NullOr(Goal), gate: GateStatus }).annotate({ identifier: "GoalStatusReport" })
export type GoalStatusReport = typeof GoalStatusReport.Type

/** A goal in one of these is stalled: no progress is expected until something outside the loop changes. */
export const STALLED_STATUSES: ReadonlyArray<GoalStatus> = ["review_blocked", "blocked", "needs_user_decision"]

/**
 * The completion gate: every criterion `pass` with a `green` and a `scenario` evidence entry from its
 * current attempt, no open review blocker, at least one criterion, and a goal that is not stalled
 * (`review_blocked`, `blocked` or `needs_user_decision`, however it got there). Evidence from earlier
 * attempts stays in the record but never satisfies the gate; nothing but evidence opens it.
 */
export const evaluateGate = (goal: Goal): GateStatus => {
  const unmet: Array<Unmet> = []
  if (STALLED_STATUSES.includes(goal.status)) {
    unmet.push({ kind: "goal", status: goal.status, reason: `the goal is ${goal.status}; a stalled goal cannot complete` })
  }
  if (goal.criteria.length === 0) {
    unmet.push({ kind: "goal", status: goal.status, reason: "the goal has no success criteria" })
  }
  for (const criterion of goal.criteria) {
    const current = criterion.evidence.filter((entry) => entry.attempt === criterion.attempt)
    const owes: Array<Owed> = []
    if (criterion.status !== "pass") owes.push("pass")
    if (!current.some((entry) => entry.kind === "green")) owes.push("green")
    if (!current.some((entry) => entry.kind === "scenario")) owes.push("scenario")
    if (owes.length > 0) {
      unmet.push({
        kind: "criterion",
        criterionId: criterion.id,
        scenario: criterion.scenario,
        status: criterion.status,
        attempt: criterion.attempt,
        owes
      })
    }
  }
  for (const blocker of goal.reviewBlockers) {
    if (blocker.status === "open") unmet.push({ kind: "blocker", blockerId: blocker.id, detail: blocker.detail })
  }
  return { passed: unmet.length === 0, unmet }
}
