import { Owed } from "../Gate.js"
import { CriterionStatus, EvidenceKind, GoalStatus, QaChannel, SettableGoalStatus, SteeringKind } from "../Goal.js"
import { LEDGER_SCHEMA, type LedgerEvent } from "../LedgerEvent.js"

/**
 * A hand-written check that a parsed ledger line is an event exactly as the event Schema describes
 * it, with no property the Schema does not name. Decoding every line through the Schema was about
 * half the cost of opening a long ledger; this check accepts only values the Schema accepts and
 * decodes to themselves, and answers `false` for everything else — including valid events with
 * extra properties, which the Schema decodes by dropping them — so the caller falls back to the
 * Schema, which stays the definition and gives the reason. `test/ledger-decode.test.ts` holds
 * the two to that.
 */

type JsonObject = { readonly [key: string]: unknown }

const isRecord = (value: unknown): value is JsonObject => typeof value === "object" && value !== null && !Array.isArray(value)

/**
 * Enumerable properties, inherited ones included (a parsed object has none), so that an object with
 * any property the check did not look at is refused.
 */
const keyCount = (record: JsonObject): number => {
  let count = 0
  for (const _key in record) count++
  return count
}

const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/
const NON_BLANK = /\S/

const isString = (value: unknown): value is string => typeof value === "string"
const isSafeId = (value: unknown): boolean => typeof value === "string" && SAFE_ID.test(value)
const isText = (value: unknown): boolean => typeof value === "string" && NON_BLANK.test(value)
const isCount = (value: unknown, minimum: number): boolean =>
  typeof value === "number" && Number.isSafeInteger(value) && value >= minimum
const oneOf = (literals: ReadonlyArray<string>) => {
  const allowed = new Set<unknown>(literals)
  return (value: unknown): boolean => allowed.has(value)
}

const isQaChannel = oneOf(QaChannel.literals)
const isCriterionStatus = oneOf(CriterionStatus.literals)
const isEvidenceKind = oneOf(EvidenceKind.literals)
const isGoalStatus = oneOf(GoalStatus.literals)
const isSettableGoalStatus = oneOf(SettableGoalStatus.literals)
const isSteeringKind = oneOf(SteeringKind.literals)
const isOwed = oneOf(Owed.literals)

/**
 * Whether an optional key is absent or passes `check`; answers how many keys it adds. A key holding
 * `undefined` counts as absent here but not in `keyCount`, so such an object is refused.
 */
const optional = (record: JsonObject, key: string, check: (value: unknown) => boolean): number | undefined => {
  const value = record[key]
  if (value === undefined) return 0
  return check(value) ? 1 : undefined
}

const isNewCriterion = (value: unknown): boolean =>
  isRecord(value) &&
  keyCount(value) === 4 &&
  isSafeId(value.id) &&
  isText(value.scenario) &&
  isQaChannel(value.qaChannel) &&
  isText(value.testRef)

const isCriterionSpec = (value: unknown): boolean =>
  isRecord(value) && keyCount(value) === 3 && isText(value.scenario) && isQaChannel(value.qaChannel) && isText(value.testRef)

const isArrayOf = (value: unknown, check: (item: unknown) => boolean): boolean => Array.isArray(value) && value.every(check)

const isGoal = (value: unknown): boolean =>
  isRecord(value) && keyCount(value) === 3 && isSafeId(value.id) && isText(value.objective) && isArrayOf(value.criteria, isNewCriterion)

const isEvidence = (value: unknown): boolean => {
  if (!isRecord(value)) return false
  const detail = optional(value, "detail", isString)
  return (
    detail !== undefined &&
    keyCount(value) === 5 + detail &&
    isSafeId(value.id) &&
    isSafeId(value.criterionId) &&
    isEvidenceKind(value.kind) &&
    isText(value.ref) &&
    isCount(value.attempt, 1)
  )
}

const isCheckpoint = (value: unknown): boolean => {
  if (!isRecord(value)) return false
  const active = optional(value, "activeCriterion", isSafeId)
  return active !== undefined && keyCount(value) === 2 + active && isSafeId(value.id) && isText(value.summary)
}

const isSteering = (value: unknown): boolean => {
  if (!isRecord(value)) return false
  const criterion = optional(value, "criterionId", isSafeId)
  return (
    criterion !== undefined &&
    keyCount(value) === 5 + criterion &&
    isSafeId(value.id) &&
    isSteeringKind(value.kind) &&
    isText(value.directive) &&
    isText(value.evidence) &&
    isText(value.rationale)
  )
}

const isBlocker = (value: unknown): boolean => isRecord(value) && keyCount(value) === 2 && isSafeId(value.id) && isText(value.detail)

const isUnmet = (value: unknown): boolean => {
  if (!isRecord(value)) return false
  switch (value.kind) {
    case "criterion":
      return (
        keyCount(value) === 6 &&
        isString(value.criterionId) &&
        isString(value.scenario) &&
        isCriterionStatus(value.status) &&
        typeof value.attempt === "number" &&
        Number.isFinite(value.attempt) &&
        isArrayOf(value.owes, isOwed)
      )
    case "blocker":
      return keyCount(value) === 3 && isString(value.blockerId) && isString(value.detail)
    case "goal":
      return keyCount(value) === 3 && isGoalStatus(value.status) && isString(value.reason)
    default:
      return false
  }
}

/** The keys besides the envelope (`schema`, `seq`, `at`, `kind`, optional `forced` and `forcedBy`) each kind has, checked. */
const payloadKeys = (event: JsonObject): number | undefined => {
  switch (event.kind) {
    case "goal_created":
      return isGoal(event.goal) ? 1 : undefined
    case "criterion_added":
      return isNewCriterion(event.criterion) ? 1 : undefined
    case "criterion_status":
      return isSafeId(event.criterionId) && isCriterionStatus(event.status) ? 2 : undefined
    case "criterion_retry":
      return isSafeId(event.criterionId) && isCriterionStatus(event.status) && isCount(event.attempt, 1) ? 3 : undefined
    case "evidence_added":
      return isEvidence(event.evidence) ? 1 : undefined
    case "checkpoint":
      return isCheckpoint(event.checkpoint) ? 1 : undefined
    case "steer": {
      const criterion = optional(event, "criterion", isNewCriterion)
      return criterion !== undefined && isSteering(event.steering) ? 1 + criterion : undefined
    }
    case "steering_rejected": {
      const criterion = optional(event, "criterion", isCriterionSpec)
      return criterion !== undefined &&
        isString(event.directive) &&
        isSteeringKind(event.steeringKind) &&
        isString(event.evidence) &&
        isString(event.rationale) &&
        isString(event.reason)
        ? 5 + criterion
        : undefined
    }
    case "review_blocker":
      return isBlocker(event.blocker) ? 1 : undefined
    case "review_blocker_resolved":
      return isSafeId(event.blockerId) ? 1 : undefined
    case "goal_status":
      return isSettableGoalStatus(event.status) ? 1 : undefined
    case "goal_completed":
      return isArrayOf(event.unmet, isUnmet) ? 1 : undefined
    default:
      return undefined
  }
}

/** Whether `value` certainly is a ledger event as the Schema decodes it; `false` means "ask the Schema". */
export const isExactLedgerEvent = (value: unknown): value is LedgerEvent => {
  if (!isRecord(value) || value.schema !== LEDGER_SCHEMA || !isCount(value.seq, 1) || !isString(value.at)) return false
  const forced = optional(value, "forced", (flag) => typeof flag === "boolean")
  const forcedBy = optional(value, "forcedBy", isText)
  if (forced === undefined || forcedBy === undefined) return false
  const payload = payloadKeys(value)
  return payload !== undefined && keyCount(value) === 4 + forced + forcedBy + payload
}
