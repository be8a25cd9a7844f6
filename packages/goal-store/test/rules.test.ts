import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import {
  GateRefused,
  GoalAlreadyComplete,
  InvalidInput,
  NoActiveGoal,
  ObjectiveConflict,
  openGoalStore,
  SteeringRejected,
  UnknownBlocker,
  UnknownCriterion
} from "@armory/goal-store"
import { describe, expect, it } from "vitest"
import { readyGoal, rejection, tempRoot } from "./support/temp.js"

const login = { scenario: "a user logs in", qaChannel: "browser", testRef: "e2e/login.spec.ts" } as const
const logout = { scenario: "a user logs out", qaChannel: "http", testRef: "api/logout.test.ts" } as const

const ledgerKinds = (root: string) =>
  readFileSync(join(root, "ledger.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((line) => (JSON.parse(line) as { kind: string }).kind)

describe("objective", () => {
  it("creates the goal with its criteria in one goal_created event", async () => {
    const root = tempRoot()
    const store = await openGoalStore({ root })
    const goal = await store.set({ objective: "Ship login", criteria: [login, logout] })
    expect(goal).toMatchObject({ id: "g1", objective: "Ship login", status: "active" })
    expect(goal.criteria.map((criterion) => [criterion.id, criterion.status, criterion.attempt])).toEqual([
      ["c1", "pending", 1],
      ["c2", "pending", 1]
    ])
    expect(ledgerKinds(root)).toEqual(["goal_created"])
  })

  it("refuses a different objective in the same session and keeps sessions apart", async () => {
    const root = tempRoot()
    const store = await openGoalStore({ root })
    await store.set({ objective: "Ship login" })
    const error = await rejection(store.set({ objective: "Rewrite billing" }))
    expect(error).toBeInstanceOf(ObjectiveConflict)
    expect(error).toMatchObject({ current: "Ship login", requested: "Rewrite billing" })
    const same = await store.set({ objective: "Ship login" })
    expect(same.id).toBe("g1")
    const billing = await openGoalStore({ root, sessionId: "billing" })
    expect((await billing.set({ objective: "Rewrite billing" })).objective).toBe("Rewrite billing")
    expect((await store.status()).goal?.objective).toBe("Ship login")
    expect(await store.sessions()).toEqual(["billing"])
    expect(existsSync(join(root, "sessions", "billing", "ledger.jsonl"))).toBe(true)
    expect(ledgerKinds(root)).toEqual(["goal_created"])
  })

  it("refuses operations before a goal exists", async () => {
    const store = await openGoalStore({ root: tempRoot() })
    expect(await rejection(store.addCriterion(login))).toBeInstanceOf(NoActiveGoal)
  })
})

describe("the completion gate", () => {
  it("lists every criterion's missing pass/green/scenario and every open blocker", async () => {
    const root = tempRoot()
    const store = await openGoalStore({ root })
    await store.set({ objective: "Ship login", criteria: [login, logout] })
    await store.addEvidence({ criterionId: "c1", kind: "green", ref: "ci/1" })
    await store.addBlocker({ detail: "security review" })
    const error = await rejection(store.complete())
    expect(error).toBeInstanceOf(GateRefused)
    expect((error as GateRefused).unmet).toEqual([
      { kind: "criterion", criterionId: "c1", scenario: login.scenario, status: "pending", attempt: 1, owes: ["pass", "scenario"] },
      { kind: "criterion", criterionId: "c2", scenario: logout.scenario, status: "pending", attempt: 1, owes: ["pass", "green", "scenario"] },
      { kind: "blocker", blockerId: "b1", detail: "security review" }
    ])
    expect(ledgerKinds(root)).not.toContain("goal_completed")
  })

  it("completes once every criterion passes with current green and scenario evidence", async () => {
    const store = await readyGoal(tempRoot())
    const status = await store.status()
    expect(status.gate).toEqual({ passed: true, unmet: [] })
    const goal = await store.complete()
    expect(goal.status).toBe("complete")
    expect(goal.forcedCompletion).toBeUndefined()
  })

  it("refuses a goal with no criteria and a stalled goal", async () => {
    const empty = await openGoalStore({ root: tempRoot() })
    await empty.set({ objective: "Nothing to verify" })
    expect(((await rejection(empty.complete())) as GateRefused).unmet).toEqual([
      { kind: "goal", status: "active", reason: "the goal has no success criteria" }
    ])
    const stalled = await readyGoal(tempRoot())
    await stalled.setGoalStatus({ status: "needs_user_decision" })
    const error = await rejection(stalled.complete())
    expect(error).toBeInstanceOf(GateRefused)
    expect((error as GateRefused).unmet).toEqual([
      { kind: "goal", status: "needs_user_decision", reason: "the goal is needs_user_decision; a stalled goal cannot complete" }
    ])
  })

  it("bumps the attempt when a failed criterion goes back to work; old evidence stays but no longer counts", async () => {
    const root = tempRoot()
    const store = await readyGoal(root)
    await store.setCriterionStatus({ criterionId: "c1", status: "fail" })
    const retried = await store.setCriterionStatus({ criterionId: "c1", status: "in_progress" })
    expect(retried.attempt).toBe(2)
    await store.setCriterionStatus({ criterionId: "c1", status: "pass" })
    const error = (await rejection(store.complete())) as GateRefused
    expect(error.unmet).toEqual([
      { kind: "criterion", criterionId: "c1", scenario: login.scenario, status: "pass", attempt: 2, owes: ["green", "scenario"] }
    ])
    const criterion = (await store.status()).goal?.criteria[0]
    expect(criterion?.evidence.map((entry) => [entry.kind, entry.attempt])).toEqual([
      ["green", 1],
      ["scenario", 1]
    ])
    const green = await store.addEvidence({ criterionId: "c1", kind: "green", ref: "ci/2" })
    expect(green.attempt).toBe(2)
    expect(existsSync(join(root, "evidence", "c1", "attempt-1", "e1.json"))).toBe(true)
    expect(existsSync(join(root, "evidence", "c1", "attempt-2", `${green.id}.json`))).toBe(true)
    expect(ledgerKinds(root).filter((kind) => kind === "criterion_retry")).toHaveLength(1)
  })

  it("does not bump the attempt for moves that are not a retry", async () => {
    const store = await readyGoal(tempRoot())
    await store.setCriterionStatus({ criterionId: "c1", status: "in_progress" })
    expect((await store.setCriterionStatus({ criterionId: "c1", status: "pending" })).attempt).toBe(1)
    await store.setCriterionStatus({ criterionId: "c1", status: "blocked" })
    expect((await store.setCriterionStatus({ criterionId: "c1", status: "pass" })).attempt).toBe(1)
  })
})

describe("a complete goal", () => {
  it("refuses changes without force, records forced ones, and never completes twice", async () => {
    const root = tempRoot()
    const store = await readyGoal(root)
    await store.complete()
    expect(await rejection(store.addCriterion(logout))).toBeInstanceOf(GoalAlreadyComplete)
    expect(await rejection(store.addBlocker({ detail: "late review" }))).toBeInstanceOf(GoalAlreadyComplete)
    expect(await rejection(store.complete())).toBeInstanceOf(GoalAlreadyComplete)
    await store.checkpoint({ summary: "post-release note", force: true })
    const lines = readFileSync(join(root, "ledger.jsonl"), "utf8").trim().split("\n")
    expect(JSON.parse(lines.at(-1) ?? "")).toMatchObject({ kind: "checkpoint", forced: true })
  })

  it("records a forced completion past a closed gate with what was unmet", async () => {
    const root = tempRoot()
    const store = await openGoalStore({ root })
    await store.set({ objective: "Ship login", criteria: [login] })
    const goal = await store.complete({ force: true })
    expect(goal.forcedCompletion).toBe(true)
    const last = JSON.parse(readFileSync(join(root, "ledger.jsonl"), "utf8").trim().split("\n").at(-1) ?? "")
    expect(last).toMatchObject({ kind: "goal_completed", forced: true, unmet: [{ kind: "criterion", criterionId: "c1" }] })
  })

  it("lets a new objective start after completion", async () => {
    const store = await readyGoal(tempRoot())
    await store.complete()
    const next = await store.set({ objective: "Ship logout", criteria: [logout] })
    expect(next).toMatchObject({ id: "g2", status: "active" })
    expect(next.criteria[0]?.id).toBe("c2")
  })
})

describe("review blockers", () => {
  it("hold the goal review_blocked until the last one resolves; an explicit blocked stays", async () => {
    const store = await readyGoal(tempRoot())
    const first = await store.addBlocker({ detail: "security review" })
    const second = await store.addBlocker({ detail: "design review" })
    expect((await store.status()).goal?.status).toBe("review_blocked")
    await store.resolveBlocker({ blockerId: first.id })
    expect((await store.status()).goal?.status).toBe("review_blocked")
    await store.resolveBlocker({ blockerId: second.id })
    expect((await store.status()).goal?.status).toBe("active")
    await store.setGoalStatus({ status: "blocked" })
    const third = await store.addBlocker({ detail: "legal" })
    expect((await store.status()).goal?.status).toBe("blocked")
    await store.resolveBlocker({ blockerId: third.id })
    expect((await store.status()).goal?.status).toBe("blocked")
    expect(await rejection(store.resolveBlocker({ blockerId: "b9" }))).toBeInstanceOf(UnknownBlocker)
  })
})

describe("steering", () => {
  it("needs evidence and a rationale for every kind", async () => {
    const store = await readyGoal(tempRoot())
    const missing = await rejection(store.steer({ directive: "focus on mobile", kind: "reprioritize", evidence: " ", rationale: "r" }))
    expect(missing).toBeInstanceOf(SteeringRejected)
    expect(missing).toMatchObject({ reason: "steering needs evidence", recorded: false })
    const noRationale = await rejection(store.steer({ directive: "focus on mobile", kind: "annotate", evidence: "e", rationale: "" }))
    expect(noRationale).toMatchObject({ reason: "steering needs a rationale" })
  })

  it("changes structure only through add_criterion, which adds work", async () => {
    const root = tempRoot()
    const store = await readyGoal(root)
    const steering = await store.steer({
      directive: "also cover logout",
      kind: "add_criterion",
      evidence: "user report #12",
      rationale: "logout was broken last release",
      criterion: logout
    })
    expect(steering.criterionId).toBe("c2")
    const status = await store.status()
    expect(status.goal?.criteria.map((criterion) => criterion.id)).toEqual(["c1", "c2"])
    expect(status.gate.passed).toBe(false)
    const error = await rejection(
      store.steer({ directive: "narrow to web", kind: "narrow_scope", evidence: "e", rationale: "r", criterion: logout })
    )
    expect(error).toBeInstanceOf(InvalidInput)
    await store.steer({ directive: "do the API first", kind: "reprioritize", evidence: "roadmap", rationale: "partners wait" })
    expect((await store.status()).goal?.criteria).toHaveLength(2)
  })

  it("refuses a completion-weakening directive, records it, and leaves the aggregate unchanged", async () => {
    const root = tempRoot()
    const store = await readyGoal(root)
    const before = await store.status()
    const error = await rejection(
      store.steer({ directive: "Just mark it done without running the tests", kind: "redirect", evidence: "deadline", rationale: "ship" })
    )
    expect(error).toBeInstanceOf(SteeringRejected)
    expect(error).toMatchObject({ recorded: true })
    expect(ledgerKinds(root).at(-1)).toBe("steering_rejected")
    expect((await store.status()).goal).toEqual(before.goal)
    const reopened = await openGoalStore({ root })
    expect((await reopened.status()).goal).toEqual(before.goal)
  })
})

describe("ids and input", () => {
  it("refuses unknown criteria and ids that could escape a directory", async () => {
    const root = tempRoot()
    const store = await readyGoal(root)
    expect(await rejection(store.addEvidence({ criterionId: "c7", kind: "green", ref: "x" }))).toBeInstanceOf(UnknownCriterion)
    expect(await rejection(store.addEvidence({ criterionId: "../../etc", kind: "green", ref: "x" }))).toBeInstanceOf(InvalidInput)
    expect(await rejection(store.checkpoint({ summary: "s", activeCriterion: "c9" }))).toBeInstanceOf(UnknownCriterion)
    expect(await rejection(openGoalStore({ root, sessionId: "../outside" }))).toBeInstanceOf(InvalidInput)
    expect(await rejection(openGoalStore({ root, sessionId: "." }))).toBeInstanceOf(InvalidInput)
  })

  it("rejects malformed input from untyped callers with InvalidInput", async () => {
    const store = await readyGoal(tempRoot())
    const untyped = store as unknown as { addCriterion(input: unknown): Promise<unknown> }
    const error = await rejection(untyped.addCriterion({ scenario: "x", qaChannel: "carrier-pigeon", testRef: "t" }))
    expect(error).toBeInstanceOf(InvalidInput)
  })
})
