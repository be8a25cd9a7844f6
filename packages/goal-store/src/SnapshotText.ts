import type { GoalStatusReport } from "./Domain.js"
import type { Owed, Unmet } from "./Gate.js"

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

/**
 * The short, stable text a host injects into every turn: the objective and goal status, the gate, the
 * next unmet criteria with what each still owes, and the open review blockers. The same state always
 * renders the same text.
 */
export const renderSnapshot = (report: GoalStatusReport): string => {
  const { goal, gate } = report
  if (goal === null) return "Goal: none set.\nGate: closed (no goal)."
  const criteria = gate.unmet.filter((unmet): unmet is CriterionUnmet => unmet.kind === "criterion")
  const blockers = gate.unmet.filter((unmet) => unmet.kind === "blocker")
  const goalReasons = gate.unmet.filter((unmet) => unmet.kind === "goal")
  const met = goal.criteria.length - criteria.length
  const lines = [`Goal ${goal.id} [${goal.status}]: ${goal.objective}`]
  if (goal.status === "complete") {
    lines.push(`Gate: ${goal.forcedCompletion === true ? "completed by force past an unmet gate" : "passed; goal complete"}.`)
    return lines.join("\n")
  }
  lines.push(
    gate.passed
      ? `Gate: open — all ${goal.criteria.length} criteria met; ready to complete.`
      : `Gate: closed — ${met}/${goal.criteria.length} criteria met, ${blockers.length} blocker${blockers.length === 1 ? "" : "s"} open.`
  )
  for (const reason of goalReasons) lines.push(`Stalled: ${reason.reason}.`)
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
