import { BLOCKED_BROWSER_DRIVER_CLEANUP_FAILED } from "@armory/capability-probe"
import { Schema } from "effect"

/** One thing a run created, and the observation that shows it is gone. */
export const CleanupItem = Schema.Struct({
  kind: Schema.Literals(["page", "context", "download", "directory", "process"]),
  id: Schema.String,
  removed: Schema.Boolean,
  /** What was observed: the target list re-read over CDP, the file or directory absent, the pid absent. */
  proof: Schema.String
})
export type CleanupItem = typeof CleanupItem.Type

/**
 * Every page, context, download, directory and process a run created, each with observed proof that
 * it is gone. A receipt that is not `verified` blocks the run (`BLOCKED_BROWSER_DRIVER_CLEANUP_FAILED`):
 * never report such a run as a success.
 */
export const CleanupReceipt = Schema.Struct({
  verified: Schema.Boolean,
  items: Schema.Array(CleanupItem),
  blocker: Schema.NullOr(Schema.Literal(BLOCKED_BROWSER_DRIVER_CLEANUP_FAILED))
})
export type CleanupReceipt = typeof CleanupReceipt.Type

/** The receipt of these items: verified when every one was observed removed. */
export const receiptOf = (items: ReadonlyArray<CleanupItem>): CleanupReceipt => {
  const verified = items.every((item) => item.removed)
  return { verified, items: [...items], blocker: verified ? null : BLOCKED_BROWSER_DRIVER_CLEANUP_FAILED }
}
