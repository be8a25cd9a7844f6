import { Schema } from "effect"
import { Unmet } from "./Gate.js"

/**
 * The errors a caller of the goal store sees. They are Schema-backed tagged errors because they
 * cross process and HTTP boundaries (the CLI, the HTTP API and code mode pass them on intact).
 */

/** `complete` was refused: the gate is closed for the listed reasons. */
export class GateRefused extends Schema.TaggedError<GateRefused>()("GateRefused", { unmet: Schema.Array(Unmet) }) {
  override get message(): string {
    return `completion refused: ${this.unmet.length} unmet (${this.unmet.map(describeUnmet).join("; ")})`
  }
}

/** A steering directive was refused; `recorded` says whether the refusal was written to the ledger. */
export class SteeringRejected extends Schema.TaggedError<SteeringRejected>()("SteeringRejected", {
  reason: Schema.String,
  recorded: Schema.Boolean
}) {
  override get message(): string {
    return `steering rejected: ${this.reason}`
  }
}

/**
 * The goal is complete: its evidence is a finished record, and new work belongs in a new session.
 * (An operator may still change it deliberately; the message, which a model reads, does not say how.)
 */
export class GoalAlreadyComplete extends Schema.TaggedError<GoalAlreadyComplete>()("GoalAlreadyComplete", {
  goalId: Schema.String
}) {
  override get message(): string {
    return `goal ${this.goalId} is complete and its evidence is a finished record; start new work in a new session (--session-id <id> on the command line, sessionId in the API)`
  }
}

/**
 * `force` was asked of a store opened without an operator: only a store an operator opened (naming
 * themselves, see `GoalStoreOptions.operator`) may change a complete goal. Nothing was written.
 */
export class ForceNotAllowed extends Schema.TaggedError<ForceNotAllowed>()("ForceNotAllowed", { goalId: Schema.String }) {
  override get message(): string {
    return `goal ${this.goalId} is complete, and force is refused: this store was opened without an operator, so nothing here may change a complete goal`
  }
}

/** The session already pursues a different objective: one aggregate objective per session. */
export class ObjectiveConflict extends Schema.TaggedError<ObjectiveConflict>()("ObjectiveConflict", {
  current: Schema.String,
  requested: Schema.String
}) {
  override get message(): string {
    return `the session's active objective is ${JSON.stringify(this.current)}; layer more criteria with addCriterion or use another session`
  }
}

export class UnknownCriterion extends Schema.TaggedError<UnknownCriterion>()("UnknownCriterion", {
  criterionId: Schema.String
}) {
  override get message(): string {
    return `no criterion ${JSON.stringify(this.criterionId)} in the active goal`
  }
}

export class UnknownBlocker extends Schema.TaggedError<UnknownBlocker>()("UnknownBlocker", { blockerId: Schema.String }) {
  override get message(): string {
    return `no review blocker ${JSON.stringify(this.blockerId)} in the active goal`
  }
}

/** The operation needs a goal and the session has none yet (`set` creates it). */
export class NoActiveGoal extends Schema.TaggedError<NoActiveGoal>()("NoActiveGoal", { sessionId: Schema.String }) {
  override get message(): string {
    return `session ${this.sessionId} has no goal; set an objective first`
  }
}

/** An argument was rejected before anything was read or written. */
export class InvalidInput extends Schema.TaggedError<InvalidInput>()("InvalidInput", { reason: Schema.String }) {
  override get message(): string {
    return `invalid input: ${this.reason}`
  }
}

/** A state file cannot be trusted; it was left byte-for-byte as found. `repair` offers the fix. */
export class MalformedState extends Schema.TaggedError<MalformedState>()("MalformedState", {
  file: Schema.String,
  line: Schema.optionalKey(Schema.Number),
  reason: Schema.String
}) {
  override get message(): string {
    return `malformed state in ${this.file}${this.line === undefined ? "" : ` line ${this.line}`}: ${this.reason} (run repair)`
  }
}

/**
 * A read, write or fsync failed. `committed` says whether the event reached the ledger (then only the
 * snapshot is behind, and the next open rebuilds it); when false the operation left no trace.
 */
export class StorageFailure extends Schema.TaggedError<StorageFailure>()("StorageFailure", {
  operation: Schema.String,
  file: Schema.String,
  reason: Schema.String,
  committed: Schema.Boolean
}) {
  override get message(): string {
    return `${this.operation} failed on ${this.file}: ${this.reason}${this.committed ? " (the event is committed to the ledger)" : ""}`
  }
}

/** The session lock could not be taken in time, or was taken from this writer while it held it. */
export class LockUnavailable extends Schema.TaggedError<LockUnavailable>()("LockUnavailable", {
  lock: Schema.String,
  reason: Schema.String
}) {
  override get message(): string {
    return `session lock ${this.lock} unavailable: ${this.reason}`
  }
}

/** The refusals the domain decides; storage and lock failures come on top. */
export type DomainError =
  | GateRefused
  | SteeringRejected
  | GoalAlreadyComplete
  | ForceNotAllowed
  | ObjectiveConflict
  | UnknownCriterion
  | UnknownBlocker
  | NoActiveGoal
  | InvalidInput

export type GoalStoreError = DomainError | MalformedState | StorageFailure | LockUnavailable

const DOMAIN_ERROR_TAGS: ReadonlySet<string> = new Set<DomainError["_tag"]>([
  "GateRefused",
  "SteeringRejected",
  "GoalAlreadyComplete",
  "ForceNotAllowed",
  "ObjectiveConflict",
  "UnknownCriterion",
  "UnknownBlocker",
  "NoActiveGoal",
  "InvalidInput"
])

/** Whether an error is a refusal the domain decided, as opposed to a storage or lock failure. */
export const isDomainError = (error: GoalStoreError): error is DomainError => DOMAIN_ERROR_TAGS.has(error._tag)

function describeUnmet(unmet: Unmet): string {
  switch (unmet.kind) {
    case "criterion":
      return `${unmet.criterionId} owes ${unmet.owes.join(", ")}`
    case "blocker":
      return `blocker ${unmet.blockerId} open`
    case "goal":
      return unmet.reason
  }
}
