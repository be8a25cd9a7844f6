import { isAbsolute, relative, sep } from "node:path"
import { Goals } from "@armory/api"
import type { GoalStoreError } from "@armory/host"

/**
 * A file the store names, as a refusal shows it: relative to the goals root, so a body never tells
 * a caller where the server keeps its files (a path outside the root shows only its last segment).
 */
const shownFile = (root: string | undefined, file: string): string => {
  if (root === undefined || !isAbsolute(file)) return file
  const inside = relative(root, file)
  return inside === "" ? "." : inside.startsWith("..") || isAbsolute(inside) ? (file.split(sep).at(-1) ?? "") : inside
}

/** Text (an operating-system message quoting a path) with the goals root taken out. */
const shownText = (root: string | undefined, text: string): string =>
  root === undefined ? text : text.replaceAll(`${root}${sep}`, "").replaceAll(root, ".")

/** The contract's refusal for one of the goal store's, its file names shown relative to the goals root. */
export const apiGoalError = (root: string | undefined, error: GoalStoreError): Goals.GoalsError => {
  switch (error._tag) {
    case "GateRefused":
      return new Goals.GateRefused({ unmet: error.unmet })
    case "ObjectiveConflict":
      return new Goals.ObjectiveConflict({ current: error.current, requested: error.requested })
    case "GoalAlreadyComplete":
      return new Goals.GoalAlreadyComplete({ goalId: error.goalId })
    case "ForceNotAllowed":
      return new Goals.ForceNotAllowed({ goalId: error.goalId })
    case "SteeringRejected":
      return new Goals.SteeringRejected({ reason: error.reason, recorded: error.recorded })
    case "UnknownCriterion":
      return new Goals.UnknownCriterion({ criterionId: error.criterionId })
    case "UnknownBlocker":
      return new Goals.UnknownBlocker({ blockerId: error.blockerId })
    case "NoActiveGoal":
      return new Goals.NoActiveGoal({ sessionId: error.sessionId })
    case "InvalidInput":
      return new Goals.InvalidInput({ reason: shownText(root, error.reason) })
    case "MalformedState":
      return new Goals.MalformedState({
        file: shownFile(root, error.file),
        reason: shownText(root, error.reason),
        ...(error.line === undefined ? {} : { line: error.line })
      })
    case "LockUnavailable":
      return new Goals.LockUnavailable({ lock: shownFile(root, error.lock), reason: shownText(root, error.reason) })
    case "StorageFailure":
      return new Goals.StorageFailure({
        operation: error.operation,
        file: shownFile(root, error.file),
        reason: shownText(root, error.reason),
        committed: error.committed
      })
  }
}
