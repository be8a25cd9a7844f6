import type { GoalStatusReport } from "./Gate.js"
import { type Owed, STALLED_STATUSES, type Unmet } from "./Gate.js"

/** How many unmet criteria the turn snapshot lists before summarising the rest. */
export const SNAPSHOT_CRITERIA_SHOWN = 3

const OWED_TEXT: Readonly<Record<Owed, string>> = {
  pass: "status pass",
  green: "green evidence",
  scenario: "scenario evidence"
}

type CriterionUnmet = Extract<Unmet, { kind: "criterion" }>

const criterionLine = (unmet: CriterionUnmet) =>
  `- ${unmet.criterionId} [${unmet.status}, attempt ${unmet.attempt}] ${unmet.scenario} — owes ${unmet.owes.map((owed) => OWED_TEXT[owed]).join(", ")}`

const criteriaCount = (count: number) => `${count} ${count === 1 ? "criterion" : "criteria"}`

/**
 * The short, stable text a host injects into every turn while a goal is open: the objective and
 * status, a stop sign when the goal is stalled, the latest steering directive (the annotation-only
 * kinds take effect only by appearing here), the gate with what completion waits for, the next unmet
 * criteria with what each still owes, and the open review blockers. With no open goal (none set, or
 * complete) there is nothing to inject: the text is empty. The same state always renders the same text.
 */
export const renderSnapshot = (report: GoalStatusReport): string => {
  const { goal, gate } = report
  if (goal === null || goal.status === "complete") return ""
  const criteria = gate.unmet.filter((unmet): unmet is CriterionUnmet => unmet.kind === "criterion")
  const blockers = gate.unmet.filter((unmet) => unmet.kind === "blocker")
  const met = goal.criteria.length - criteria.length
  const lines = [`Goal ${goal.id} [${goal.status}]: ${goal.objective}`]
  if (STALLED_STATUSES.includes(goal.status)) {
    lines.push(
      `This goal is stalled: stop implementing. It is ${goal.status}; resolve ${goal.status === "review_blocked" ? "the review blockers" : "what blocks it"} or get the user's decision first.`
    )
  }
  const latest = goal.steering.at(-1)
  if (latest !== undefined) {
    lines.push(`Latest steering [${latest.kind}]: ${latest.directive} (evidence: ${latest.evidence}; rationale: ${latest.rationale})`)
  }
  if (gate.passed) {
    lines.push(`Gate: open — all ${criteriaCount(goal.criteria.length)} met with current evidence; the goal may be completed.`)
  } else {
    const waits = [
      ...(goal.criteria.length === 0 ? ["the goal has success criteria"] : []),
      ...(criteria.length > 0 ? [`${criteria.length} more ${criteria.length === 1 ? "criterion passes" : "criteria pass"} with current green and scenario evidence (${met}/${goal.criteria.length} met)`] : []),
      ...(blockers.length > 0 ? [blockers.length === 1 ? "1 open review blocker is resolved" : `${blockers.length} open review blockers are resolved`] : []),
      ...(STALLED_STATUSES.includes(goal.status) ? [`the goal is no longer ${goal.status}`] : [])
    ]
    lines.push(`Gate: closed — completion is refused until ${waits.join(", and ")}.`)
  }
  if (goal.criteria.length === 0) lines.push("No success criteria yet: define them before claiming progress.")
  if (criteria.length > 0) {
    lines.push("Next criteria:")
    for (const unmet of criteria.slice(0, SNAPSHOT_CRITERIA_SHOWN)) lines.push(criterionLine(unmet))
    if (criteria.length > SNAPSHOT_CRITERIA_SHOWN) lines.push(`- …and ${criteria.length - SNAPSHOT_CRITERIA_SHOWN} more unmet`)
  }
  if (blockers.length > 0) {
    lines.push("Open blockers:")
    for (const blocker of blockers) lines.push(`- ${blocker.blockerId}: ${blocker.detail}`)
  }
  return lines.join("\n")
}
