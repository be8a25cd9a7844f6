import { mkdirSync, writeFileSync } from "node:fs"
import { hostname } from "node:os"
import { join } from "node:path"
import { acquireLock, GateRefused, GoalStore, goalTools, openGoalStore, renderSnapshot } from "@armory/goal-store"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { readyGoal, rejection, tempRoot } from "./support/temp.js"

describe("GoalStore service", () => {
  it.effect("runs the goal operations as Effects with typed failures", () =>
    Effect.gen(function* () {
      const store = yield* GoalStore
      yield* store.set({ objective: "Ship login", criteria: [{ scenario: "logs in", qaChannel: "cli", testRef: "t/login" }] })
      const refused = yield* Effect.flip(store.complete())
      expect(refused).toBeInstanceOf(GateRefused)
      expect(refused._tag).toBe("GateRefused")
      const status = yield* store.status()
      expect(status.gate.passed).toBe(false)
      expect(yield* store.sessions()).toEqual(["effect"])
    }).pipe(Effect.provide(GoalStore.layerFile({ root: tempRoot(), sessionId: "effect" })))
  )
})

describe("snapshot()", () => {
  it("renders objective, gate, the next unmet criteria with what they owe, and open blockers", async () => {
    const store = await openGoalStore({ root: tempRoot() })
    await store.set({
      objective: "Ship login",
      criteria: [
        { scenario: "a user logs in", qaChannel: "browser", testRef: "e2e/login" },
        { scenario: "a user logs out", qaChannel: "http", testRef: "api/logout" },
        { scenario: "a session expires", qaChannel: "http", testRef: "api/expiry" },
        { scenario: "passwords reset", qaChannel: "cli", testRef: "cli/reset" }
      ]
    })
    await store.addEvidence({ criterionId: "c1", kind: "green", ref: "ci/1" })
    await store.setCriterionStatus({ criterionId: "c1", status: "in_progress" })
    await store.addBlocker({ detail: "security review" })
    expect(await store.snapshot()).toBe(
      [
        "Goal g1 [review_blocked]: Ship login",
        "Gate: closed — 0/4 criteria met, 1 blocker open.",
        "Next criteria:",
        "- c1 [in_progress, attempt 1] a user logs in — owes status pass, scenario evidence",
        "- c2 [pending, attempt 1] a user logs out — owes status pass, green evidence, scenario evidence",
        "- c3 [pending, attempt 1] a session expires — owes status pass, green evidence, scenario evidence",
        "- …and 1 more unmet",
        "Open blockers:",
        "- b1: security review"
      ].join("\n")
    )
  })

  it("says when there is no goal, when the gate is open, and when the goal is complete", async () => {
    expect(await (await openGoalStore({ root: tempRoot() })).snapshot()).toBe("Goal: none set.\nGate: closed (no goal).")
    const store = await readyGoal(tempRoot())
    expect(await store.snapshot()).toBe("Goal g1 [active]: Ship login\nGate: open — all 1 criteria met; ready to complete.")
    await store.complete()
    expect(renderSnapshot(await store.status())).toBe("Goal g1 [complete]: Ship login\nGate: passed; goal complete.")
  })
})

describe("goalTools", () => {
  it("exposes every operation with Schemas that decode what run takes and returns", async () => {
    const tools = goalTools(await readyGoal(tempRoot()))
    expect(Object.keys(tools).toSorted()).toEqual(
      [
        "addBlocker",
        "addCriterion",
        "addEvidence",
        "checkpoint",
        "complete",
        "resolveBlocker",
        "sessions",
        "set",
        "setCriterionStatus",
        "setGoalStatus",
        "snapshot",
        "status",
        "steer"
      ].toSorted()
    )
    const input = Schema.decodeUnknownSync(tools.addBlocker.input)({ detail: "needs review" })
    const blocker = await tools.addBlocker.run(input)
    expect(Schema.decodeUnknownSync(tools.addBlocker.output)(blocker)).toEqual(blocker)
    const status = await tools.status.run({})
    expect(Schema.decodeUnknownSync(tools.status.output)(status)).toEqual(status)
    expect(() => Schema.decodeUnknownSync(tools.addEvidence.input)({ criterionId: "../x", kind: "green", ref: "r" })).toThrow(/criterionId/)
  })

  it("rejects with the typed refusal and its unmet list", async () => {
    const tools = goalTools(await readyGoal(tempRoot()))
    await tools.addBlocker.run({ detail: "security review" })
    const error = await rejection(tools.complete.run({}))
    expect(error).toBeInstanceOf(GateRefused)
    expect((error as GateRefused).unmet).toEqual([{ kind: "blocker", blockerId: "b1", detail: "security review" }])
    const encoded = Schema.encodeSync(GateRefused)(error as GateRefused)
    expect(encoded).toMatchObject({ _tag: "GateRefused", unmet: [{ kind: "blocker", blockerId: "b1" }] })
  })
})

describe("the session lock", () => {
  it.live("breaks a lock whose owner process is dead", () =>
    Effect.gen(function* () {
      const lock = join(tempRoot(), ".lock")
      mkdirSync(lock)
      writeFileSync(join(lock, "owner.json"), JSON.stringify({ pid: 2 ** 22 + 7, host: hostname(), token: "dead", acquiredAt: 0 }))
      const held = yield* acquireLock(lock, { timeoutMs: 2_000 })
      expect(held.token).not.toBe("dead")
      yield* held.release
    })
  )

  it.live("waits for a live holder and fails with LockUnavailable when it does not let go", () =>
    Effect.gen(function* () {
      const lock = join(tempRoot(), ".lock")
      const held = yield* acquireLock(lock)
      const error = yield* Effect.flip(acquireLock(lock, { timeoutMs: 150 }))
      expect(error._tag).toBe("LockUnavailable")
      expect(error.reason).toBe(`timed out; held by pid ${process.pid} on ${hostname()}`)
      yield* held.release
      const next = yield* acquireLock(lock, { timeoutMs: 150 })
      yield* next.release
    })
  )

  it.live("fails the holder's next step, without throwing, once its lock was taken over", () =>
    Effect.gen(function* () {
      const lock = join(tempRoot(), ".lock")
      const held = yield* acquireLock(lock)
      writeFileSync(join(lock, "owner.json"), JSON.stringify({ pid: process.pid, host: hostname(), token: "intruder", acquiredAt: 0 }))
      const error = yield* Effect.flip(held.verify)
      expect(error._tag).toBe("LockUnavailable")
      yield* held.release
    })
  )

  it("fails a write whose lock is held by a live process until the timeout, with nothing written", async () => {
    const root = tempRoot()
    const store = await readyGoal(root)
    const other = await openGoalStore({ root, lock: { timeoutMs: 100 } })
    mkdirSync(join(root, ".lock"))
    writeFileSync(join(root, ".lock", "owner.json"), JSON.stringify({ pid: process.pid, host: hostname(), token: "held", acquiredAt: Date.now() }))
    const error = await rejection(other.checkpoint({ summary: "blocked out" }))
    expect(error).toMatchObject({ _tag: "LockUnavailable" })
    expect((await store.status()).goal?.checkpoints).toEqual([])
  })
})
