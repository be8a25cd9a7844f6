import { createHash } from "node:crypto"
import { mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type GoalStoreClient, openGoalStore } from "@armory/goal-store"

export const tempRoot = (): string => mkdtempSync(join(tmpdir(), "armory-goals-"))

export const sha256 = (file: string): string => createHash("sha256").update(readFileSync(file)).digest("hex")

/** Whatever a rejected promise rejected with, so a test can assert on the tagged error's fields. */
export const rejection = async (promise: Promise<unknown>): Promise<unknown> => {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error("expected the promise to reject, it resolved")
}

/** A goal with one criterion whose gate is open: pass, with green and scenario evidence. */
export const readyGoal = async (root: string, sessionId?: string): Promise<GoalStoreClient> => {
  const store = await openGoalStore({ root, sessionId })
  await store.set({ objective: "Ship login", criteria: [{ scenario: "a user logs in", qaChannel: "browser", testRef: "e2e/login.spec.ts" }] })
  await store.addEvidence({ criterionId: "c1", kind: "green", ref: "ci/run/1" })
  await store.addEvidence({ criterionId: "c1", kind: "scenario", ref: "recordings/login.webm" })
  await store.setCriterionStatus({ criterionId: "c1", status: "pass" })
  return store
}
