import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { makeFileGoalStore } from "@armory/goal-store"
import { Effect } from "effect"
import { FetchHttpClient } from "effect/http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createClient } from "@armory/client"
import { makeArmoryClient } from "@armory/client/effect"
import { type RunningServer, startServer, TOKEN } from "./support/server.js"

let server: RunningServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())

const criterion = { scenario: "the login page accepts a valid user", qaChannel: "http", testRef: "test/login.test.ts" } as const

describe("the goals group through the generated fetch client", () => {
  it("runs a goal to a 409 gate refusal listing what is unmet, then to completion", async () => {
    const client = createClient({ baseUrl: server.url, token: TOKEN })
    const query = { sessionId: "fetch" }
    const set = await client.POST("/goals/set", { params: { query }, body: { objective: "ship login", criteria: [criterion] } })
    expect(set.response.status).toBe(200)
    const criterionId = set.data?.criteria[0]?.id ?? ""

    const refused = await client.POST("/goals/complete", { params: { query }, body: {} })
    expect(refused.response.status).toBe(409)
    expect(refused.error).toMatchObject({
      _tag: "GateRefused",
      unmet: [{ kind: "criterion", criterionId, owes: expect.arrayContaining(["pass", "green", "scenario"]) }]
    })

    const unknown = await client.POST("/goals/evidence", {
      params: { query },
      body: { criterionId: "nope", kind: "green", ref: "ci#1" }
    })
    expect(unknown.response.status).toBe(404)
    expect(unknown.error).toMatchObject({ _tag: "UnknownCriterion", criterionId: "nope" })

    const weakening = await client.POST("/goals/steer", {
      params: { query },
      body: { directive: "skip the tests and mark it done", kind: "redirect", evidence: "deadline", rationale: "hurry" }
    })
    expect(weakening.response.status).toBe(422)
    expect(weakening.error).toMatchObject({ _tag: "SteeringRejected" })

    const blocker = await client.POST("/goals/blockers", { params: { query }, body: { detail: "needs review" } })
    expect(blocker.response.status).toBe(200)
    for (const kind of ["green", "scenario"] as const) {
      expect((await client.POST("/goals/evidence", { params: { query }, body: { criterionId, kind, ref: `${kind}#1` } })).response.status).toBe(200)
    }
    expect((await client.POST("/goals/criterion-status", { params: { query }, body: { criterionId, status: "pass" } })).response.status).toBe(200)

    const blocked = await client.POST("/goals/complete", { params: { query }, body: {} })
    expect(blocked.response.status).toBe(409)
    expect(blocked.error).toMatchObject({
      _tag: "GateRefused",
      unmet: [{ kind: "goal", status: "review_blocked" }, { kind: "blocker", blockerId: blocker.data?.id }]
    })

    const resolved = await client.POST("/goals/blockers/resolve", { params: { query }, body: { blockerId: blocker.data?.id ?? "" } })
    expect(resolved.response.status).toBe(200)
    const status = await client.GET("/goals/status", { params: { query } })
    expect(status.data?.gate).toEqual({ passed: true, unmet: [] })

    const done = await client.POST("/goals/complete", { params: { query }, body: {} })
    expect(done.response.status).toBe(200)
    expect(done.data?.status).toBe("complete")
    const again = await client.POST("/goals/criteria", { params: { query }, body: criterion })
    expect(again.response.status).toBe(409)
    expect(again.error).toMatchObject({ _tag: "GoalAlreadyComplete" })
  })

  it("never opens the gate for force, and refuses force (403) unless the server has a goal operator", async () => {
    const client = createClient({ baseUrl: server.url, token: TOKEN })
    const query = { sessionId: "forced" }
    await client.POST("/goals/set", { params: { query }, body: { objective: "ship login", criteria: [criterion] } })
    const forced = await client.POST("/goals/complete", { params: { query }, body: { force: true } })
    expect(forced.response.status).toBe(409)
    expect(forced.error).toMatchObject({ _tag: "GateRefused" })
    for (const kind of ["green", "scenario"] as const) await client.POST("/goals/evidence", { params: { query }, body: { criterionId: "c1", kind, ref: `${kind}#1` } })
    await client.POST("/goals/criterion-status", { params: { query }, body: { criterionId: "c1", status: "pass" } })
    expect((await client.POST("/goals/complete", { params: { query }, body: {} })).response.status).toBe(200)
    const refused = await client.POST("/goals/checkpoint", { params: { query }, body: { summary: "after release", force: true } })
    expect(refused.response.status).toBe(403)
    expect(refused.error).toMatchObject({ _tag: "ForceNotAllowed", goalId: "g1" })

    const operated = await startServer({ goalsRoot: server.goalsRoot, goalOperator: "release-manager" })
    try {
      const operator = createClient({ baseUrl: operated.url, token: TOKEN })
      const reopened = await operator.POST("/goals/complete", { params: { query }, body: { force: true } })
      expect(reopened.response.status).toBe(200)
      const checkpoint = await operator.POST("/goals/checkpoint", { params: { query }, body: { summary: "after release", force: true } })
      expect(checkpoint.response.status).toBe(200)
      const ledger = readFileSync(join(server.goalsRoot, "sessions", "forced", "ledger.jsonl"), "utf8").trimEnd().split("\n")
      expect(ledger.slice(-2).map((line) => JSON.parse(line) as unknown)).toMatchObject([
        { kind: "goal_completed", forced: true, forcedBy: "release-manager" },
        { kind: "checkpoint", forced: true, forcedBy: "release-manager" }
      ])
    } finally {
      await operated.close()
    }
  })

  it("answers 404 NoActiveGoal for a fresh session and 400 for an unsafe session id", async () => {
    const client = createClient({ baseUrl: server.url, token: TOKEN })
    const none = await client.POST("/goals/checkpoint", { params: { query: { sessionId: "empty" } }, body: { summary: "x" } })
    expect(none.response.status).toBe(404)
    expect(none.error).toMatchObject({ _tag: "NoActiveGoal", sessionId: "empty" })
    const unsafe = await client.GET("/goals/status", { params: { query: { sessionId: "../escape" } } })
    expect(unsafe.response.status).toBe(400)
  })
})

describe("the goals group through the Effect client", () => {
  it("fails with the typed GateRefused (and its unmet list), then completes", async () => {
    const result = await Effect.runPromise(
      Effect.gen(function* () {
        const client = yield* makeArmoryClient({ baseUrl: server.url, token: TOKEN })
        const query = { sessionId: "effect" }
        const goal = yield* client.goals.set({ query, payload: { objective: "ship search" } })
        const added = yield* client.goals.addCriterion({ query, payload: criterion })
        const refused = yield* client.goals.complete({ query, payload: {} }).pipe(Effect.flip)
        const conflict = yield* client.goals.set({ query, payload: { objective: "something else" } }).pipe(Effect.flip)
        yield* client.goals.addEvidence({ query, payload: { criterionId: added.id, kind: "green", ref: "ci#2" } })
        yield* client.goals.addEvidence({ query, payload: { criterionId: added.id, kind: "scenario", ref: "run#2" } })
        yield* client.goals.setCriterionStatus({ query, payload: { criterionId: added.id, status: "pass" } })
        yield* client.goals.checkpoint({ query, payload: { summary: "all green", activeCriterion: added.id } })
        const snapshot = yield* client.goals.snapshot({ query })
        const done = yield* client.goals.complete({ query, payload: {} })
        const sessions = yield* client.goals.sessions({ query: {} })
        return { goal, added, refused, conflict, snapshot, done, sessions }
      }).pipe(Effect.provide(FetchHttpClient.layer))
    )
    expect(result.goal.objective).toBe("ship search")
    expect(result.refused._tag).toBe("GateRefused")
    expect(result.refused).toMatchObject({ unmet: [{ kind: "criterion", criterionId: result.added.id }] })
    expect(result.conflict).toMatchObject({ _tag: "ObjectiveConflict", current: "ship search" })
    expect(result.snapshot.snapshot).toContain("ship search")
    expect(result.done.status).toBe("complete")
    expect(result.sessions).toContain("effect")
  })
})

describe("the goals group over sessions the host keeps open", () => {
  it("sees what another writer committed to a session it holds open", async () => {
    const client = createClient({ baseUrl: server.url, token: TOKEN })
    const query = { sessionId: "shared" }
    expect((await client.POST("/goals/set", { params: { query }, body: { objective: "ship export" } })).response.status).toBe(200)
    const elsewhere = await Effect.runPromise(makeFileGoalStore({ root: server.goalsRoot, sessionId: "shared" }))
    await Effect.runPromise(elsewhere.addBlocker({ detail: "review pending" }))
    const status = await client.GET("/goals/status", { params: { query } })
    expect(status.data?.goal?.reviewBlockers.map((blocker) => blocker.detail)).toEqual(["review pending"])
    expect(status.data?.gate.unmet).toContainEqual(expect.objectContaining({ kind: "blocker", detail: "review pending" }))
  })

  it("names files relative to the goals root in a refusal, never where the server keeps them", async () => {
    const client = createClient({ baseUrl: server.url, token: TOKEN })
    const directory = join(server.goalsRoot, "sessions", "broken")
    mkdirSync(directory, { recursive: true })
    writeFileSync(join(directory, "ledger.jsonl"), "{ not json\n")
    const refused = await client.GET("/goals/status", { params: { query: { sessionId: "broken" } } })
    expect(refused.response.status).toBe(409)
    expect(refused.error).toMatchObject({ _tag: "MalformedState", file: join("sessions", "broken", "ledger.jsonl") })
    expect(JSON.stringify(refused.error)).not.toContain(server.goalsRoot)
  })
})
