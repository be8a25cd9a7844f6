// The goal store's behaviour, independent of where events are stored: every backend runs this same
// suite (the file store from this package, the PostgreSQL store from @armory/goal-store-pg through a
// relative import) and so obeys the same rules.
import {
  ForceNotAllowed,
  GateRefused,
  GoalAlreadyComplete,
  GoalStore,
  type GoalStoreClient,
  type GoalStoreError,
  goalTools,
  importLedger,
  InvalidInput,
  LEDGER_SCHEMA,
  type LedgerEvent,
  NoActiveGoal,
  ObjectiveConflict,
  renderSnapshot,
  SteeringRejected,
  UnknownBlocker,
  UnknownCriterion
} from "@armory/goal-store"
import { deriveStatus, encodeLedgerLine, fold } from "@armory/goal-store/backend"
import { Effect, type Layer, Result, Schema } from "effect"
import fc from "fast-check"
import { beforeAll, describe, expect, it } from "vitest"
import { rejection } from "./temp.js"

/** How a test opens a session: as a model-facing surface does (no operator), or as a named operator. */
export interface SpaceAccess {
  readonly operator?: string
}

/** One store with nothing in it yet: a fresh root directory, a fresh database schema. */
export interface GoalStoreSpace {
  /** Opens a session of this store; without an id, the default session. */
  readonly open: (sessionId?: string, access?: SpaceAccess) => Promise<GoalStoreClient>
  /** The same session as the Effect `GoalStore` service. */
  readonly layer: (sessionId?: string, access?: SpaceAccess) => Layer.Layer<GoalStore, GoalStoreError>
  /** The committed ledger events of a session, read back from storage. */
  readonly events: (sessionId?: string) => Promise<ReadonlyArray<LedgerEvent>>
  /** Asserts that what the backend keeps besides the ledger (its snapshot) agrees with fold(ledger). */
  readonly checkStorage: (sessionId?: string) => Promise<void>
}

export interface GoalStoreHarness {
  readonly space: () => Promise<GoalStoreSpace>
  /** fast-check runs of the random command sequences (default 500). */
  readonly propertyRuns?: number
}

const login = { scenario: "a user logs in", qaChannel: "browser", testRef: "e2e/login.spec.ts" } as const
const logout = { scenario: "a user logs out", qaChannel: "http", testRef: "api/logout.test.ts" } as const

/** A goal with one criterion whose gate is open: pass, with green and scenario evidence. */
export const readyGoal = async (space: GoalStoreSpace, sessionId?: string): Promise<GoalStoreClient> => {
  const store = await space.open(sessionId)
  await store.set({ objective: "Ship login", criteria: [login] })
  await store.addEvidence({ criterionId: "c1", kind: "green", ref: "ci/run/1" })
  await store.addEvidence({ criterionId: "c1", kind: "scenario", ref: "recordings/login.webm" })
  await store.setCriterionStatus({ criterionId: "c1", status: "pass" })
  return store
}

const kinds = async (space: GoalStoreSpace, sessionId?: string) => (await space.events(sessionId)).map((event) => event.kind)

const lines = (events: ReadonlyArray<LedgerEvent>) => events.map(encodeLedgerLine)

/** The goal rules: objective, gate, completion, blockers, steering, ids and hostile input. */
export const describeGoalStoreRules = (name: string, harness: GoalStoreHarness) => {
  describe(`${name}: objective`, () => {
    it("creates the goal with its criteria in one goal_created event", async () => {
      const space = await harness.space()
      const store = await space.open()
      const goal = await store.set({ objective: "Ship login", criteria: [login, logout] })
      expect(goal).toMatchObject({ id: "g1", objective: "Ship login", status: "active" })
      expect(goal.criteria.map((criterion) => [criterion.id, criterion.status, criterion.attempt])).toEqual([
        ["c1", "pending", 1],
        ["c2", "pending", 1]
      ])
      expect(await kinds(space)).toEqual(["goal_created"])
      const [event] = await space.events()
      expect(event).toMatchObject({ schema: LEDGER_SCHEMA, seq: 1 })
    })

    it("refuses a different objective in the same session and keeps sessions apart", async () => {
      const space = await harness.space()
      const store = await space.open()
      await store.set({ objective: "Ship login" })
      const error = await rejection(store.set({ objective: "Rewrite billing" }))
      expect(error).toBeInstanceOf(ObjectiveConflict)
      expect(error).toMatchObject({ current: "Ship login", requested: "Rewrite billing" })
      const same = await store.set({ objective: "Ship login" })
      expect(same.id).toBe("g1")
      const billing = await space.open("billing")
      expect((await billing.set({ objective: "Rewrite billing" })).objective).toBe("Rewrite billing")
      expect((await store.status()).goal?.objective).toBe("Ship login")
      expect(await store.sessions()).toEqual(["billing"])
      expect(await kinds(space, "billing")).toEqual(["goal_created"])
      expect(await kinds(space)).toEqual(["goal_created"])
    })

    it("refuses operations before a goal exists", async () => {
      const store = await (await harness.space()).open()
      expect(await rejection(store.addCriterion(login))).toBeInstanceOf(NoActiveGoal)
    })

    it("refuses session ids that are not a safe path segment", async () => {
      const space = await harness.space()
      expect(await rejection(space.open("../outside"))).toBeInstanceOf(InvalidInput)
      expect(await rejection(space.open("."))).toBeInstanceOf(InvalidInput)
      expect(await rejection(space.open("x'; DROP TABLE goal_events; --"))).toBeInstanceOf(InvalidInput)
    })
  })

  describe(`${name}: the completion gate`, () => {
    it("lists every criterion's missing pass/green/scenario and every open blocker", async () => {
      const space = await harness.space()
      const store = await space.open()
      await store.set({ objective: "Ship login", criteria: [login, logout] })
      await store.addEvidence({ criterionId: "c1", kind: "green", ref: "ci/1" })
      await store.addBlocker({ detail: "security review" })
      const error = await rejection(store.complete())
      expect(error).toBeInstanceOf(GateRefused)
      expect((error as GateRefused).unmet).toEqual([
        { kind: "goal", status: "review_blocked", reason: "the goal is review_blocked; a stalled goal cannot complete" },
        { kind: "criterion", criterionId: "c1", scenario: login.scenario, status: "pending", attempt: 1, owes: ["pass", "scenario"] },
        { kind: "criterion", criterionId: "c2", scenario: logout.scenario, status: "pending", attempt: 1, owes: ["pass", "green", "scenario"] },
        { kind: "blocker", blockerId: "b1", detail: "security review" }
      ])
      expect(await kinds(space)).not.toContain("goal_completed")
    })

    it("completes once every criterion passes with current green and scenario evidence", async () => {
      const store = await readyGoal(await harness.space())
      const status = await store.status()
      expect(status.gate).toEqual({ passed: true, unmet: [] })
      const goal = await store.complete()
      expect(goal.status).toBe("complete")
    })

    it("never opens for force: not on a store a model reaches, not on an operator's, not through goalTools", async () => {
      const space = await harness.space()
      const store = await space.open()
      await store.set({ objective: "Ship login", criteria: [login] })
      await store.addEvidence({ criterionId: "c1", kind: "note", ref: "looked fine to me" })
      const operator = await space.open(undefined, { operator: "release-manager" })
      const untyped = goalTools(store).complete as unknown as { run(input: unknown): Promise<unknown> }
      const refusals = [
        await rejection(store.complete({ force: true })),
        await rejection(operator.complete({ force: true })),
        await rejection(untyped.run({ force: true }))
      ]
      expect(refusals.map((error) => (error as GateRefused)._tag)).toEqual(["GateRefused", "GateRefused", "GateRefused"])
      expect((refusals[1] as GateRefused).unmet).toEqual([
        { kind: "criterion", criterionId: "c1", scenario: login.scenario, status: "pending", attempt: 1, owes: ["pass", "green", "scenario"] }
      ])
      expect(await kinds(space)).toEqual(["goal_created", "evidence_added"])
    })

    it("counts a goal set to review_blocked by hand as stalled, and takes needs_user_decision for a criterion", async () => {
      const store = await readyGoal(await harness.space())
      await store.setGoalStatus({ status: "review_blocked" })
      const error = await rejection(store.complete())
      expect(error).toBeInstanceOf(GateRefused)
      expect((error as GateRefused).unmet).toEqual([
        { kind: "goal", status: "review_blocked", reason: "the goal is review_blocked; a stalled goal cannot complete" }
      ])
      await store.setGoalStatus({ status: "active" })
      const waiting = await store.setCriterionStatus({ criterionId: "c1", status: "needs_user_decision" })
      expect(waiting.status).toBe("needs_user_decision")
      expect(((await rejection(store.complete())) as GateRefused).unmet).toEqual([
        { kind: "criterion", criterionId: "c1", scenario: login.scenario, status: "needs_user_decision", attempt: 1, owes: ["pass"] }
      ])
    })

    it("refuses a goal with no criteria and a stalled goal", async () => {
      const empty = await (await harness.space()).open()
      await empty.set({ objective: "Nothing to verify" })
      expect(((await rejection(empty.complete())) as GateRefused).unmet).toEqual([
        { kind: "goal", status: "active", reason: "the goal has no success criteria" }
      ])
      const stalled = await readyGoal(await harness.space())
      await stalled.setGoalStatus({ status: "needs_user_decision" })
      const error = await rejection(stalled.complete())
      expect(error).toBeInstanceOf(GateRefused)
      expect((error as GateRefused).unmet).toEqual([
        { kind: "goal", status: "needs_user_decision", reason: "the goal is needs_user_decision; a stalled goal cannot complete" }
      ])
    })

    it("bumps the attempt when a failed criterion goes back to work; old evidence stays but no longer counts", async () => {
      const space = await harness.space()
      const store = await readyGoal(space)
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
      expect((await kinds(space)).filter((kind) => kind === "criterion_retry")).toHaveLength(1)
    })

    it("does not bump the attempt for moves that are not a retry", async () => {
      const store = await readyGoal(await harness.space())
      await store.setCriterionStatus({ criterionId: "c1", status: "in_progress" })
      expect((await store.setCriterionStatus({ criterionId: "c1", status: "pending" })).attempt).toBe(1)
      await store.setCriterionStatus({ criterionId: "c1", status: "blocked" })
      expect((await store.setCriterionStatus({ criterionId: "c1", status: "pass" })).attempt).toBe(1)
    })
  })

  describe(`${name}: a complete goal`, () => {
    it("refuses every change, pointing new work at a new session, and is never completed twice", async () => {
      const space = await harness.space()
      const store = await readyGoal(space)
      await store.complete()
      const refused = [
        await rejection(store.addCriterion(logout)),
        await rejection(store.addBlocker({ detail: "late review" })),
        await rejection(store.setCriterionStatus({ criterionId: "c1", status: "fail" })),
        await rejection(store.complete())
      ]
      for (const error of refused) expect(error).toBeInstanceOf(GoalAlreadyComplete)
      expect((refused[0] as GoalAlreadyComplete).message).toMatch(/new session \(--session-id <id> on the command line, sessionId in the API\)/)
      expect((refused[0] as GoalAlreadyComplete).message).not.toMatch(/force/)
      expect((await space.events()).at(-1)?.kind).toBe("goal_completed")
    })

    it("refuses force on a store opened without an operator, writing nothing", async () => {
      const space = await harness.space()
      const store = await readyGoal(space)
      await store.complete()
      const before = await space.events()
      const error = await rejection(store.checkpoint({ summary: "post-release note", force: true }))
      expect(error).toBeInstanceOf(ForceNotAllowed)
      expect(error).toMatchObject({ goalId: "g1" })
      expect(lines(await space.events())).toEqual(lines(before))
    })

    it("lets an operator change it with force, recording who did", async () => {
      const space = await harness.space()
      await (await readyGoal(space)).complete()
      const operator = await space.open(undefined, { operator: "release-manager" })
      await operator.checkpoint({ summary: "post-release note", force: true })
      expect((await space.events()).at(-1)).toMatchObject({ kind: "checkpoint", forced: true, forcedBy: "release-manager" })
      expect(await rejection(operator.checkpoint({ summary: "without force" }))).toBeInstanceOf(GoalAlreadyComplete)
      expect((await operator.status()).goal?.status).toBe("complete")
      expect(await rejection(space.open(undefined, { operator: "  " }))).toBeInstanceOf(InvalidInput)
    })

    it("refuses a new objective and keeps the finished goal visible; the same objective is answered as it is", async () => {
      const space = await harness.space()
      const store = await readyGoal(space)
      await store.complete()
      const error = await rejection(store.set({ objective: "Ship logout", criteria: [logout] }))
      expect(error).toBeInstanceOf(GoalAlreadyComplete)
      expect((await store.status()).goal).toMatchObject({ id: "g1", objective: "Ship login", status: "complete" })
      expect(await store.set({ objective: "Ship login" })).toMatchObject({ id: "g1", status: "complete" })
      expect((await kinds(space)).filter((kind) => kind === "goal_created")).toHaveLength(1)
    })
  })

  describe(`${name}: review blockers`, () => {
    it("hold the goal review_blocked until the last one resolves; an explicit blocked stays", async () => {
      const store = await readyGoal(await harness.space())
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

    it("outrank needs_user_decision: the goal reads review_blocked while one is open", async () => {
      const store = await readyGoal(await harness.space())
      await store.setGoalStatus({ status: "needs_user_decision" })
      const blocker = await store.addBlocker({ detail: "security review" })
      expect((await store.status()).goal?.status).toBe("review_blocked")
      expect((await store.setGoalStatus({ status: "needs_user_decision" })).status).toBe("review_blocked")
      await store.resolveBlocker({ blockerId: blocker.id })
      expect((await store.status()).goal?.status).toBe("active")
    })
  })

  describe(`${name}: steering`, () => {
    it("needs a directive, evidence and a rationale for every kind, and records each refusal", async () => {
      const space = await harness.space()
      const store = await readyGoal(space)
      const missing = await rejection(store.steer({ directive: "focus on mobile", kind: "reprioritize", evidence: " ", rationale: "r" }))
      expect(missing).toBeInstanceOf(SteeringRejected)
      expect(missing).toMatchObject({ reason: expect.stringMatching(/^steering needs evidence/), recorded: true })
      const noRationale = await rejection(store.steer({ directive: "focus on mobile", kind: "annotate", evidence: "e", rationale: "" }))
      expect(noRationale).toMatchObject({ reason: expect.stringMatching(/^steering needs a rationale/), recorded: true })
      const noDirective = await rejection(store.steer({ directive: "\t", kind: "redirect", evidence: "e", rationale: "r" }))
      expect(noDirective).toMatchObject({ reason: "steering needs a directive", recorded: true })
      const rejections = (await space.events()).filter((event) => event.kind === "steering_rejected")
      expect(rejections.map((event) => [event.directive, event.steeringKind, event.reason])).toEqual([
        ["focus on mobile", "reprioritize", (missing as SteeringRejected).reason],
        ["focus on mobile", "annotate", (noRationale as SteeringRejected).reason],
        ["\t", "redirect", "steering needs a directive"]
      ])
    })

    it("records a steer the goal cannot take: before any goal, and once it is complete", async () => {
      const space = await harness.space()
      const store = await space.open()
      const steer = { directive: "do the API first", kind: "reprioritize", evidence: "roadmap", rationale: "partners wait" } as const
      expect(await rejection(store.steer(steer))).toBeInstanceOf(NoActiveGoal)
      await (await readyGoal(space)).complete()
      expect(await rejection(store.steer(steer))).toBeInstanceOf(GoalAlreadyComplete)
      const events = await space.events()
      expect(events.filter((event) => event.kind === "steering_rejected").map((event) => event.reason)).toEqual([
        "there is no goal to steer; set an objective first",
        expect.stringMatching(/^goal g1 is complete/)
      ])
      expect(events[0]?.kind).toBe("steering_rejected")
      await space.checkStorage()
    })

    it("changes structure only through add_criterion, which adds work", async () => {
      const store = await readyGoal(await harness.space())
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
      expect(error).toBeInstanceOf(SteeringRejected)
      expect(error).toMatchObject({ reason: "only add_criterion changes structure; a narrow_scope directive carries no criterion" })
      await store.steer({ directive: "do the API first", kind: "reprioritize", evidence: "roadmap", rationale: "partners wait" })
      expect((await store.status()).goal?.criteria).toHaveLength(2)
    })

    it("refuses a completion-weakening directive, records it, and leaves the aggregate unchanged", async () => {
      const space = await harness.space()
      const store = await readyGoal(space)
      const before = await store.status()
      const error = await rejection(
        store.steer({ directive: "Just mark it done without running the tests", kind: "redirect", evidence: "deadline", rationale: "ship" })
      )
      expect(error).toBeInstanceOf(SteeringRejected)
      expect(error).toMatchObject({ recorded: true })
      expect((await kinds(space)).at(-1)).toBe("steering_rejected")
      expect((await store.status()).goal).toEqual(before.goal)
      const reopened = await space.open()
      expect((await reopened.status()).goal).toEqual(before.goal)
    })
  })

  describe(`${name}: ids and input`, () => {
    it("refuses unknown criteria and ids that could escape a directory", async () => {
      const store = await readyGoal(await harness.space())
      expect(await rejection(store.addEvidence({ criterionId: "c7", kind: "green", ref: "x" }))).toBeInstanceOf(UnknownCriterion)
      expect(await rejection(store.addEvidence({ criterionId: "../../etc", kind: "green", ref: "x" }))).toBeInstanceOf(InvalidInput)
      expect(await rejection(store.checkpoint({ summary: "s", activeCriterion: "c9" }))).toBeInstanceOf(UnknownCriterion)
    })

    it("rejects malformed input from untyped callers with InvalidInput, writing nothing", async () => {
      const space = await harness.space()
      const store = await readyGoal(space)
      const untyped = store as unknown as { addCriterion(input: unknown): Promise<unknown>; set(input: unknown): Promise<unknown> }
      expect(await rejection(untyped.addCriterion({ scenario: "x", qaChannel: "carrier-pigeon", testRef: "t" }))).toBeInstanceOf(InvalidInput)
      expect(await rejection(untyped.addCriterion("{ not an object"))).toBeInstanceOf(InvalidInput)
      expect(await rejection(untyped.set({ objective: { $gt: "" } }))).toBeInstanceOf(InvalidInput)
      expect(await space.events()).toHaveLength(4)
    })

    it("allocates distinct ids to concurrent writers of one session", async () => {
      const space = await harness.space()
      await (await space.open()).set({ objective: "Many writers" })
      const [first, second] = [await space.open(), await space.open()]
      const written = await Promise.all(
        Array.from({ length: 24 }, (_, index) => (index % 2 === 0 ? first : second).checkpoint({ summary: `write ${index}` }))
      )
      expect(new Set(written.map((checkpoint) => checkpoint.id)).size).toBe(24)
      const events = await space.events()
      expect(events.map((event) => event.seq)).toEqual(Array.from({ length: 25 }, (_, index) => index + 1))
      await space.checkStorage()
    })
  })

  describe(`${name}: hostile text`, () => {
    const hostile = [
      "Robert'); DROP TABLE goal_events; --",
      "' OR '1'='1",
      "$1 $$ $body$ \\x00 %s %n {{7*7}} #{process.exit()}",
      '"quoted" \\ back\\slash \n new line \t tab',
      "한국어 目標 🚀 e\u0301 \u202Eright-to-left",
      "<script>alert(1)</script>"
    ]

    it("stores SQL-ish, quoting and unicode text verbatim and reads it back unchanged", async () => {
      const space = await harness.space()
      const store = await space.open()
      const [objective = "", ...rest] = hostile
      await store.set({ objective, criteria: rest.map((text, index) => ({ scenario: text, qaChannel: "cli", testRef: `t/${index}` })) })
      for (const text of hostile) await store.checkpoint({ summary: text })
      await store.addEvidence({ criterionId: "c1", kind: "green", ref: hostile[0] ?? "", detail: hostile.join("|") })
      const reopened = await space.open()
      const goal = (await reopened.status()).goal
      expect(goal?.objective).toBe(objective)
      expect(goal?.criteria.map((criterion) => criterion.scenario)).toEqual(rest)
      expect(goal?.checkpoints.map((checkpoint) => checkpoint.summary)).toEqual(hostile)
      expect(goal?.criteria[0]?.evidence[0]).toMatchObject({ ref: hostile[0], detail: hostile.join("|") })
      await space.checkStorage()
    })

    it("round-trips a 1 MiB objective and 500 criteria in one event", async () => {
      const space = await harness.space()
      const store = await space.open()
      const objective = `huge ${"x".repeat(1024 * 1024)}`
      const criteria = Array.from({ length: 500 }, (_, index) => ({ scenario: `scenario ${index} ${"y".repeat(200)}`, qaChannel: "cli" as const, testRef: `t/${index}` }))
      await store.set({ objective, criteria })
      const goal = (await (await space.open()).status()).goal
      expect(goal?.objective).toBe(objective)
      expect(goal?.criteria).toHaveLength(500)
      expect(goal?.criteria.at(-1)?.id).toBe("c500")
      await space.checkStorage()
    })
  })
}

/** The Effect service, the per-turn snapshot text and the model-facing tools. */
export const describeGoalStoreService = (name: string, harness: GoalStoreHarness) => {
  describe(`${name}: the GoalStore service`, () => {
    it("runs the goal operations as Effects with typed failures", async () => {
      const space = await harness.space()
      const program = Effect.gen(function* () {
        const store = yield* GoalStore
        yield* store.set({ objective: "Ship login", criteria: [{ scenario: "logs in", qaChannel: "cli", testRef: "t/login" }] })
        const refused = yield* Effect.flip(store.complete())
        expect(refused).toBeInstanceOf(GateRefused)
        expect(refused._tag).toBe("GateRefused")
        const status = yield* store.status()
        expect(status.gate.passed).toBe(false)
        expect(yield* store.sessions()).toEqual(["effect"])
        expect(store.sessionId).toBe("effect")
      })
      await Effect.runPromise(program.pipe(Effect.provide(space.layer("effect"))))
    })
  })

  describe(`${name}: snapshot()`, () => {
    it("renders objective, stop sign, latest steering, gate, the next unmet criteria with what they owe, and open blockers", async () => {
      const store = await (await harness.space()).open()
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
      await store.steer({ directive: "do logout first", kind: "reprioritize", evidence: "support tickets", rationale: "users are stuck" })
      await store.addBlocker({ detail: "security review" })
      expect(await store.snapshot()).toBe(
        [
          "Goal g1 [review_blocked]: Ship login",
          "This goal is stalled: stop implementing. It is review_blocked; resolve the review blockers or get the user's decision first.",
          "Latest steering [reprioritize]: do logout first (evidence: support tickets; rationale: users are stuck)",
          "Gate: closed — completion is refused until 4 more criteria pass with current green and scenario evidence (0/4 met), and 1 open review blocker is resolved, and the goal is no longer review_blocked.",
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

    it("is empty with no open goal, and says when the gate is open", async () => {
      expect(await (await (await harness.space()).open()).snapshot()).toBe("")
      const store = await readyGoal(await harness.space())
      expect(await store.snapshot()).toBe("Goal g1 [active]: Ship login\nGate: open — all 1 criterion met with current evidence; the goal may be completed.")
      await store.complete()
      expect(await store.snapshot()).toBe("")
      expect(renderSnapshot(await store.status())).toBe("")
    })
  })

  describe(`${name}: goalTools`, () => {
    it("exposes every operation with Schemas that decode what run takes and returns", async () => {
      const tools = goalTools(await readyGoal(await harness.space()))
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

    it("never offers force, and drops it when a caller slips it in", async () => {
      const space = await harness.space()
      await (await readyGoal(space)).complete()
      const tools = goalTools(await space.open(undefined, { operator: "release-manager" }))
      for (const [toolName, entry] of Object.entries(tools)) {
        const fields = Reflect.get(entry.input, "fields") as Record<string, unknown> | undefined
        expect([toolName, Object.keys(fields ?? {}).includes("force")]).toEqual([toolName, false])
      }
      const untyped = tools.checkpoint as unknown as { run(input: unknown): Promise<unknown> }
      expect(await rejection(untyped.run({ summary: "sneaky", force: true }))).toBeInstanceOf(GoalAlreadyComplete)
      expect((await space.events()).at(-1)?.kind).toBe("goal_completed")
    })

    it("rejects with the typed refusal and its unmet list", async () => {
      const tools = goalTools(await readyGoal(await harness.space()))
      await tools.addBlocker.run({ detail: "security review" })
      const error = await rejection(tools.complete.run({}))
      expect(error).toBeInstanceOf(GateRefused)
      expect((error as GateRefused).unmet).toEqual([
        { kind: "goal", status: "review_blocked", reason: "the goal is review_blocked; a stalled goal cannot complete" },
        { kind: "blocker", blockerId: "b1", detail: "security review" }
      ])
      const encoded = Schema.encodeSync(GateRefused)(error as GateRefused)
      expect(encoded).toMatchObject({ _tag: "GateRefused", unmet: [{ kind: "goal", status: "review_blocked" }, { kind: "blocker", blockerId: "b1" }] })
    })
  })
}

/** The operator the export/import round trip forces changes as. */
export const RELEASE_MANAGER = { operator: "release-manager" } as const

/** A session that went through every kind of event, for the export/import round trip; `store` is opened by `RELEASE_MANAGER`. */
export const everyKindOfEvent = async (store: GoalStoreClient) => {
  await rejection(store.steer({ directive: "start with the API", kind: "redirect", evidence: "e", rationale: "r" }))
  await store.set({ objective: "Ship login", criteria: [login] })
  await store.addCriterion(logout)
  await store.addEvidence({ criterionId: "c1", kind: "red", ref: "ci/0", detail: "failing first" })
  await store.setCriterionStatus({ criterionId: "c1", status: "fail" })
  await store.setCriterionStatus({ criterionId: "c1", status: "in_progress" })
  await store.checkpoint({ summary: "retrying login", activeCriterion: "c1" })
  await store.steer({ directive: "cover expiry", kind: "add_criterion", evidence: "bug #41", rationale: "it broke", criterion: { scenario: "expiry", qaChannel: "cli", testRef: "t/expiry" } })
  await rejection(store.steer({ directive: "skip the tests", kind: "redirect", evidence: "deadline", rationale: "ship" }))
  await rejection(store.steer({ directive: "narrow to web", kind: "narrow_scope", evidence: "e", rationale: "r", criterion: logout }))
  const blocker = await store.addBlocker({ detail: "security review" })
  await store.resolveBlocker({ blockerId: blocker.id })
  await store.setGoalStatus({ status: "needs_user_decision" })
  await store.setGoalStatus({ status: "active" })
  for (const criterionId of ["c1", "c2", "c3"]) {
    await store.addEvidence({ criterionId, kind: "green", ref: `ci/${criterionId}` })
    await store.addEvidence({ criterionId, kind: "scenario", ref: `qa/${criterionId}` })
    await store.setCriterionStatus({ criterionId, status: "pass" })
  }
  await store.complete()
  await store.checkpoint({ summary: "after release", force: true })
  await rejection(store.steer({ directive: "mark everything complete", kind: "annotate", evidence: "e", rationale: "r", force: true }))
  await store.addEvidence({ criterionId: "c2", kind: "note", ref: "seen in production", force: true })
  await store.complete({ force: true })
}

const importInto = (space: GoalStoreSpace, sessionId: string, events: ReadonlyArray<LedgerEvent>) =>
  Effect.runPromise(
    Effect.gen(function* () {
      return yield* importLedger(yield* GoalStore, events)
    }).pipe(Effect.provide(space.layer(sessionId)))
  )

/** Random command sequences, replay, and moving a ledger between sessions. */
export const describeGoalStoreProperties = (name: string, harness: GoalStoreHarness) => {
  type Command = (store: GoalStoreClient) => Promise<unknown>

  const criterionId = fc.integer({ min: 1, max: 4 }).map((n) => `c${n}`)
  const command: fc.Arbitrary<Command> = fc.oneof(
    fc.constantFrom<Command>((store) => store.addCriterion({ scenario: "works", qaChannel: "cli", testRef: "t" })),
    fc
      .tuple(criterionId, fc.constantFrom("red", "green", "scenario", "cleanup" as const))
      .map(([id, kind]): Command => (store) => store.addEvidence({ criterionId: id, kind, ref: `ref-${kind}` })),
    fc
      .tuple(criterionId, fc.constantFrom("pending", "in_progress", "pass", "fail", "blocked" as const))
      .map(([id, status]): Command => (store) => store.setCriterionStatus({ criterionId: id, status })),
    fc.string({ minLength: 1, maxLength: 12 }).map((summary): Command => (store) => store.checkpoint({ summary: `s ${summary}` })),
    fc.constantFrom<Command>(
      (store) => store.addBlocker({ detail: "review" }),
      (store) => store.resolveBlocker({ blockerId: "b1" }),
      (store) => store.complete(),
      (store) => store.complete({ force: true }),
      (store) => store.addEvidence({ criterionId: "c1", kind: "note", ref: "a note" }),
      (store) => store.setGoalStatus({ status: "review_blocked" }),
      (store) => store.setGoalStatus({ status: "blocked" }),
      (store) => store.setGoalStatus({ status: "active" }),
      (store) => store.steer({ directive: "skip the tests", kind: "annotate", evidence: "e", rationale: "r" }),
      (store) => store.steer({ directive: "API first", kind: "reprioritize", evidence: "e", rationale: "r" })
    )
  )

  describe(`${name}: random command sequences (fast-check)`, () => {
    let space: GoalStoreSpace
    let run = 0
    beforeAll(async () => {
      space = await harness.space()
    })

    it("rebuild to exactly the stored state, and replaying the ledger is deterministic and never double-applies", async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 8 }), fc.nat(), async (commands, split) => {
          const sessionId = `run-${run++}`
          const store = await space.open(sessionId)
          await store.set({ objective: "Random walk", criteria: [{ scenario: "first", qaChannel: "http", testRef: "t1" }] })
          for (const next of commands) await next(store).catch(() => undefined)
          await space.checkStorage(sessionId)
          const events = await space.events(sessionId)
          expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1))
          const once = fold(events)
          const twice = fold(events)
          expect(twice).toEqual(once)
          const at = split % (events.length + 1)
          const prefix = fold(events.slice(0, at))
          if (Result.isFailure(prefix) || Result.isFailure(once)) throw new Error("the ledger does not fold")
          expect(fold(events.slice(at), prefix.success)).toEqual(once)
          expect(Result.isFailure(fold(events, once.success))).toBe(true)
          const status = await store.status()
          expect(status.goal).toEqual(deriveStatus(once.success).goal)
          expect((await (await space.open(sessionId)).status()).goal).toEqual(status.goal)
        }),
        { numRuns: harness.propertyRuns ?? 500 }
      )
    }, 170_000)
  })

  describe(`${name}: export and import`, () => {
    it("replays an exported ledger into an empty session event for event", async () => {
      const space = await harness.space()
      const source = await space.open("source", RELEASE_MANAGER)
      await everyKindOfEvent(source)
      const exported = await space.events("source")
      expect(new Set(exported.map((event) => event.kind)).size).toBe(12)
      expect(exported.filter((event) => event.forced === true).map((event) => event.forcedBy)).toEqual([
        "release-manager",
        "release-manager",
        "release-manager",
        "release-manager"
      ])
      const report = await importInto(space, "copy", exported)
      expect(report).toEqual({ sessionId: "copy", events: exported.length, seq: exported.length })
      expect(lines(await space.events("copy"))).toEqual(lines(exported))
      expect(await (await space.open("copy")).status()).toEqual(await source.status())
      await space.checkStorage("copy")
    })

    it("refuses a session that is not empty, and a ledger that does not replay, writing nothing", async () => {
      const space = await harness.space()
      const source = await readyGoal(space, "source")
      const exported = await space.events("source")
      expect(await rejection(importInto(space, "source", exported))).toMatchObject({
        _tag: "InvalidInput",
        reason: "session source already holds goal g1; a ledger is imported into an empty session only"
      })
      const [created, first, second, ...rest] = exported
      if (created === undefined || first === undefined || second === undefined) throw new Error("the source ledger is too short")
      const tampered: ReadonlyArray<[string, ReadonlyArray<LedgerEvent>]> = [
        ["a gap in the sequence", [created, second, ...rest]],
        ["events out of order", [created, second, first, ...rest]],
        ["a goal id the domain did not allocate", [{ ...created, goal: { ...(created as Extract<LedgerEvent, { kind: "goal_created" }>).goal, id: "g7" } } as LedgerEvent, first, second, ...rest]],
        ["a completion past a closed gate", [...exported.slice(0, 2), { schema: LEDGER_SCHEMA, seq: 3, at: second.at, kind: "goal_completed", unmet: [] }]],
        ["a timestamp the store cannot stamp", [{ ...created, at: "yesterday" }]]
      ]
      const outcomes: Array<{ readonly why: string; readonly refused: unknown; readonly written: number }> = []
      for (const [why, events] of tampered) {
        const error = await rejection(importInto(space, "target", events))
        const refused = error instanceof InvalidInput && /^ledger line \d+ \(seq \d+\) does not replay: /.test(error.reason)
        outcomes.push({ why, refused: refused ? "InvalidInput" : error, written: (await space.events("target")).length })
      }
      expect(outcomes).toEqual(tampered.map(([why]) => ({ why, refused: "InvalidInput", written: 0 })))
      expect((await source.status()).gate.passed).toBe(true)
    })
  })
}

/** The whole shared suite. */
export const describeGoalStoreBehaviour = (name: string, harness: GoalStoreHarness) => {
  describeGoalStoreRules(name, harness)
  describeGoalStoreService(name, harness)
  describeGoalStoreProperties(name, harness)
}
