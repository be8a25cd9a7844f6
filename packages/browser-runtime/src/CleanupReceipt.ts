import { BLOCKED_BROWSER_DRIVER_CLEANUP_FAILED } from "@armory/capability-probe"
import { Schema } from "effect"

/** One thing a run created, and the observation that shows it is gone. */
export const CleanupItem = Schema.Struct({
  kind: Schema.Literals(["page", "context", "download"]),
  id: Schema.String,
  removed: Schema.Boolean,
  /** What was observed: the target or context list re-read over CDP, the downloaded file absent. */
  proof: Schema.String
})
export type CleanupItem = typeof CleanupItem.Type

/**
 * Every page, context and download a run created, each with observed proof that it is gone. A CDP
 * run starts no process of its own; the connection's temporary folder is Playwright's, removed when
 * it disconnects. A receipt that is not `verified` blocks the run (`BLOCKED_BROWSER_DRIVER_CLEANUP_FAILED`):
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
