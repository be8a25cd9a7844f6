import { rmSync } from "node:fs"
import { openGoalStore } from "@armory/goal-store"
import fc from "fast-check"
import { afterEach, describe, expect, it } from "vitest"
import { tempRoot } from "./support/temp.js"

const made: Array<string> = []
afterEach(() => {
  for (const directory of made.splice(0)) rmSync(directory, { recursive: true, force: true })
})

/** One step a caller takes; ids are picked modulo what exists, so every step is meaningful. */
type Step =
  | { readonly kind: "checkpoint" }
  | { readonly kind: "criterion" }
  | { readonly kind: "evidence"; readonly pick: number; readonly green: boolean }
  | { readonly kind: "status"; readonly pick: number }
  | { readonly kind: "blocker" }
  | { readonly kind: "resolve"; readonly pick: number }
  | { readonly kind: "steer" }
  | { readonly kind: "read" }
  | { readonly kind: "goalStatus" }

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 5, arbitrary: fc.constant({ kind: "checkpoint" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "criterion" as const }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("evidence" as const), pick: fc.nat(), green: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("status" as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.constant({ kind: "blocker" as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("resolve" as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.constant({ kind: "steer" as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: "read" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "goalStatus" as const }) }
)

describe("values a caller holds", () => {
  it("never change under later writes, and the store's state stays the fold of its ledger", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 60 }), async (steps) => {
        const root = tempRoot()
        made.push(root)
        const store = await openGoalStore({ root })
        const held: Array<readonly [unknown, string]> = []
        const hold = (value: unknown) => void held.push([value, JSON.stringify(value)])
        hold(await store.set({ objective: "Hold still", criteria: [{ scenario: "s1", qaChannel: "cli", testRef: "t1" }] }))
        let criteria = 1
        let blockers = 0
        for (const [index, taken] of steps.entries()) {
          switch (taken.kind) {
            case "checkpoint":
              hold(await store.checkpoint({ summary: `step ${index}` }))
              break
            case "criterion":
              criteria += 1
              hold(await store.addCriterion({ scenario: `s${criteria}`, qaChannel: "cli", testRef: `t${criteria}` }))
              break
            case "evidence":
              hold(await store.addEvidence({ criterionId: `c${(taken.pick % criteria) + 1}`, kind: taken.green ? "green" : "scenario", ref: `run ${index}` }))
              break
            case "status":
              hold(await store.setCriterionStatus({ criterionId: `c${(taken.pick % criteria) + 1}`, status: "in_progress" }))
              break
            case "blocker":
              blockers += 1
              hold(await store.addBlocker({ detail: `review ${index}` }))
              break
            case "resolve":
              if (blockers > 0) hold(await store.resolveBlocker({ blockerId: `b${(taken.pick % blockers) + 1}` }).catch((error: unknown) => error))
              break
            case "steer":
              hold(await store.steer({ directive: `focus ${index}`, kind: "annotate", evidence: "seen", rationale: "why" }))
              break
            case "read":
              hold(await store.status())
              break
            case "goalStatus":
              hold(await store.setGoalStatus({ status: "active" }))
              break
          }
        }
        for (const [value, text] of held) expect(JSON.stringify(value)).toBe(text)
        const reopened = await openGoalStore({ root })
        expect(await store.status()).toEqual(await reopened.status())
      }),
      { numRuns: 40 }
    )
  }, 120_000)
})
