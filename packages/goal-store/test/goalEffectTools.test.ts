import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { GoalAlreadyComplete, goalEffectTools, goalTools, type GoalStoreShape, InvalidInput, makeScopedFileGoalStore, openGoalStore } from "../src/index.js"

const made: Array<string> = []
afterEach(() => {
  for (const directory of made.splice(0)) rmSync(directory, { recursive: true, force: true })
})

const login = { scenario: "a user logs in", qaChannel: "browser", testRef: "e2e/login.spec.ts" } as const

/** Runs `body` on an operator's file store holding a completed goal. */
const onCompletedGoal = <A>(body: (store: GoalStoreShape) => Effect.Effect<A, unknown>) => {
  const root = mkdtempSync(join(tmpdir(), "armory-goal-effect-tools-"))
  made.push(root)
  return Effect.runPromise(
    Effect.gen(function* () {
      const store = yield* makeScopedFileGoalStore({ root, operator: "release-manager" })
      yield* store.set({ objective: "Ship login", criteria: [login] })
      yield* store.addEvidence({ criterionId: "c1", kind: "green", ref: "ci/1" })
      yield* store.addEvidence({ criterionId: "c1", kind: "scenario", ref: "qa/1" })
      yield* store.setCriterionStatus({ criterionId: "c1", status: "pass" })
      yield* store.complete()
      return yield* body(store)
    }).pipe(Effect.scoped)
  )
}

describe("goalEffectTools", () => {
  it("offers the same operations, descriptions and Schemas as goalTools", async () => {
    const root = mkdtempSync(join(tmpdir(), "armory-goal-effect-tools-"))
    made.push(root)
    const promised = goalTools(await openGoalStore({ root }))
    await onCompletedGoal((store) =>
      Effect.sync(() => {
        const effects = goalEffectTools((operation) => operation(store))
        expect(Object.keys(effects)).toEqual(Object.keys(promised))
        for (const [name, tool] of Object.entries(effects)) {
          const twin = promised[name as keyof typeof promised]
          expect([name, tool.description, tool.input.ast, tool.output.ast]).toEqual([name, twin.description, twin.input.ast, twin.output.ast])
        }
      })
    )
  })

  it("drops a force slipped in, even on an operator's store, and fails typed on input its Schema refuses", async () => {
    const failures = await onCompletedGoal((store) =>
      Effect.gen(function* () {
        const tools = goalEffectTools((operation) => operation(store))
        const untyped = tools.checkpoint as unknown as { run(input: unknown): Effect.Effect<unknown, unknown> }
        const forced = yield* Effect.flip(untyped.run({ summary: "sneaky", force: true }))
        const blank = yield* Effect.flip(untyped.run({ summary: " " }))
        const status = yield* tools.status.run({})
        return { forced, blank, checkpoints: status.goal?.checkpoints.length }
      })
    )
    expect(failures.forced).toBeInstanceOf(GoalAlreadyComplete)
    expect(failures.blank).toBeInstanceOf(InvalidInput)
    expect(failures.checkpoints).toBe(0)
  })
})
