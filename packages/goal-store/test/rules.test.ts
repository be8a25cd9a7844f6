import { existsSync } from "node:fs"
import { join } from "node:path"
import { openGoalStore } from "@armory/goal-store"
import { describe, expect, it } from "vitest"
import { describeGoalStoreRules } from "./support/behaviour.js"
import { fileHarness } from "./support/fileHarness.js"
import { readyGoal, tempRoot } from "./support/temp.js"

describeGoalStoreRules("file store", fileHarness)

describe("file store: layout", () => {
  it("keeps each session in its own directory under sessions/<id>/", async () => {
    const root = tempRoot()
    await (await openGoalStore({ root })).set({ objective: "Ship login" })
    await (await openGoalStore({ root, sessionId: "billing" })).set({ objective: "Rewrite billing" })
    expect(existsSync(join(root, "ledger.jsonl"))).toBe(true)
    expect(existsSync(join(root, "sessions", "billing", "ledger.jsonl"))).toBe(true)
    expect(existsSync(join(root, "sessions", "billing", "goals.json"))).toBe(true)
  })

  it("files evidence under the attempt it belongs to, keeping earlier attempts' records", async () => {
    const root = tempRoot()
    const store = await readyGoal(root)
    await store.setCriterionStatus({ criterionId: "c1", status: "fail" })
    await store.setCriterionStatus({ criterionId: "c1", status: "in_progress" })
    const green = await store.addEvidence({ criterionId: "c1", kind: "green", ref: "ci/2" })
    expect(existsSync(join(root, "evidence", "c1", "attempt-1", "e1.json"))).toBe(true)
    expect(existsSync(join(root, "evidence", "c1", "attempt-2", `${green.id}.json`))).toBe(true)
  })
})
