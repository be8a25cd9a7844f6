import { createHash } from "node:crypto"
import { mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type GoalStoreClient, makeFileGoalStore, openGoalStore } from "@armory/goal-store"
import { Effect } from "effect"

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

/**
 * A goal with one criterion whose gate is open: pass, with green and scenario evidence. It is written
 * through a store that never brings goals.json up to date on its own (so it lags the ledger, as after
 * any burst of writes), and handed back as a client that has not written: no settling of goals.json
 * is still to come when this returns.
 */
export const readyGoal = async (root: string, sessionId?: string): Promise<GoalStoreClient> => {
  await Effect.runPromise(
    Effect.gen(function* () {
      const store = yield* makeFileGoalStore({ root, sessionId })
      yield* store.set({ objective: "Ship login", criteria: [{ scenario: "a user logs in", qaChannel: "browser", testRef: "e2e/login.spec.ts" }] })
      yield* store.addEvidence({ criterionId: "c1", kind: "green", ref: "ci/run/1" })
      yield* store.addEvidence({ criterionId: "c1", kind: "scenario", ref: "recordings/login.webm" })
      yield* store.setCriterionStatus({ criterionId: "c1", status: "pass" })
    })
  )
  return openGoalStore({ root, sessionId })
}
