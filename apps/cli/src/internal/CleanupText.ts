import type { CleanupReceipt } from "@armory/browser-runtime"

/** A cleanup receipt for people: the verdict, then each item with what was observed. */
export const renderReceipt = (receipt: CleanupReceipt): string =>
  [
    `cleanup: ${receipt.verified ? "verified" : `BLOCKED (${receipt.blocker ?? "unverified"})`}`,
    ...receipt.items.map((item) => `  ${item.kind} ${item.id} ${item.removed ? "removed" : "NOT removed"}: ${item.proof}`)
  ].join("\n")
