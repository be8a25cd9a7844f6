import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { LEDGER_SCHEMA, type LedgerEvent, MalformedState, openGoalStore, SETTLE_AFTER_MS } from "@armory/goal-store"
import { emptyState, type FoldFailure, fold, type GoalState } from "@armory/goal-store/backend"
import { Result } from "effect"
import fc from "fast-check"
import { beforeAll, describe, expect, it } from "vitest"
import { describeGoalStoreProperties } from "./support/behaviour.js"
import { fileHarness } from "./support/fileHarness.js"
import { snapshotText } from "./support/files.js"
import { readyGoal, rejection, sha256, tempRoot } from "./support/temp.js"

type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [key: string]: Json }

const leafPaths = (value: Json, path: ReadonlyArray<string | number> = []): Array<ReadonlyArray<string | number>> => {
  if (value === null || typeof value !== "object") return [path]
  if (Array.isArray(value)) return value.flatMap((item: Json, index: number) => leafPaths(item, [...path, index]))
  return Object.entries(value).flatMap(([key, item]) => leafPaths(item, [...path, key]))
}

const withLeaf = (value: Json, path: ReadonlyArray<string | number>, leaf: Json): Json => {
  const [head, ...rest] = path
  if (head === undefined) return leaf
  if (Array.isArray(value)) return value.map((item: Json, index: number) => (index === head ? withLeaf(item, rest, leaf) : item))
  const record = value as { readonly [key: string]: Json }
  return { ...record, [head]: withLeaf(record[head] ?? null, rest, leaf) }
}

/** A value of a type the leaf can never have in a valid snapshot. */
const wrongTypeFor = (leaf: Json): Json => (typeof leaf === "string" ? 42 : typeof leaf === "number" ? "42" : leaf === null ? 7 : "yes")

describe("malformed snapshots (fast-check)", () => {
  let root: string
  let valid: string
  beforeAll(async () => {
    root = tempRoot()
    const store = await readyGoal(root)
    await store.addBlocker({ detail: "review" })
    await store.checkpoint({ summary: "half way", activeCriterion: "c1" })
    // Once the store has settled it rewrites goals.json no more, so only the property writes it.
    await new Promise((resolve) => setTimeout(resolve, SETTLE_AFTER_MS * 5))
    valid = snapshotText(root)
  })

  it("rejects 1,000 malformed snapshots with MalformedState, leaving every byte as it was", async () => {
    const parsed = JSON.parse(valid) as Json
    const paths = leafPaths(parsed)
    const malformed = fc.oneof(
      fc.integer({ min: 0, max: valid.length - 2 }).map((end) => valid.slice(0, end)),
      fc.constantFrom(...paths).map((path) => JSON.stringify(withLeaf(parsed, path, wrongTypeFor(readLeaf(parsed, path))))),
      fc.string({ minLength: 1 }).filter((tail) => tail.trim().length > 0).map((tail) => `${valid.trimEnd()}${tail}`),
      fc.json().filter((json) => !json.includes('"armory.goal.snapshot/v1"')),
      fc
        .uint8Array({ minLength: 1, maxLength: 64 })
        // JSON whitespace before the object, or a byte order mark, leaves the snapshot valid.
        .filter((bytes) => bytes.some((byte) => ![0x09, 0x0a, 0x0d, 0x20].includes(byte)) && bytes[0] !== 0xef)
        .map((bytes) => Buffer.from(bytes).toString("latin1") + valid)
    )
    await fc.assert(
      fc.asyncProperty(malformed, async (text) => {
        const file = join(root, "goals.json")
        writeFileSync(file, text, "latin1")
        const before = sha256(file)
        const error = await rejection(openGoalStore({ root }))
        expect(error).toBeInstanceOf(MalformedState)
        expect((error as MalformedState).file).toBe(file)
        expect(sha256(file)).toBe(before)
      }),
      { numRuns: 1000 }
    )
    writeFileSync(join(root, "goals.json"), valid)
    await openGoalStore({ root })
  }, 120_000)
})

const readLeaf = (value: Json, path: ReadonlyArray<string | number>): Json =>
  path.reduce<Json>((node, key) => (node as { readonly [key: string]: Json })[key] ?? null, value)

describeGoalStoreProperties("file store", fileHarness)

const outcome = (result: Result.Result<GoalState, FoldFailure>) =>
  Result.isSuccess(result) ? { folded: result.success } : { refused: result.failure }

describe("fold from a state it does not own (fast-check)", () => {
  const at = "2026-01-01T00:00:00.000Z"
  const created: LedgerEvent = {
    schema: LEDGER_SCHEMA,
    seq: 1,
    at,
    kind: "goal_created",
    goal: { id: "g1", objective: "Fold", criteria: [{ id: "c1", scenario: "s", qaChannel: "cli", testRef: "t" }] }
  }
  type Step = { readonly series: "checkpoint" | "evidence" | "status"; readonly id: number; readonly branch: boolean }
  const eventAt = (seq: number, step: Step): LedgerEvent => {
    switch (step.series) {
      case "checkpoint":
        return { schema: LEDGER_SCHEMA, seq, at, kind: "checkpoint", checkpoint: { id: `k${step.id}`, summary: `step ${seq}` } }
      case "evidence":
        return { schema: LEDGER_SCHEMA, seq, at, kind: "evidence_added", evidence: { id: `e${step.id}`, criterionId: "c1", kind: "green", ref: "r", attempt: 1 } }
      case "status":
        return { schema: LEDGER_SCHEMA, seq, at, kind: "criterion_status", criterionId: "c1", status: step.id % 2 === 0 ? "in_progress" : "pending" }
    }
  }
  const steps = fc.array(
    fc.record({ series: fc.constantFrom("checkpoint" as const, "evidence" as const, "status" as const), id: fc.integer({ min: 1, max: 12 }), branch: fc.boolean() }),
    { maxLength: 40 }
  )

  it("answers one event at a time exactly as all at once, whatever other folds start from the same states, and changes none of them", () => {
    fc.assert(
      fc.property(steps, (chosen) => {
        const events = [created, ...chosen.map((step, index) => eventAt(index + 2, step))]
        const whole = fold(events)
        let state = emptyState
        let stepwise: Result.Result<GoalState, FoldFailure> = Result.succeed(state)
        for (const [index, event] of events.entries()) {
          const before = JSON.stringify(state)
          // A fold that starts from the same state and is then dropped, as a refused or retried write's is.
          if (chosen[index - 1]?.branch === true) fold([event, { ...event, seq: event.seq + 1 }], state)
          stepwise = fold([event], state)
          expect(JSON.stringify(state)).toBe(before)
          if (Result.isFailure(stepwise)) break
          state = stepwise.success
        }
        expect(outcome(stepwise)).toEqual(outcome(whole))
      }),
      { numRuns: 300 }
    )
  })
})
