import { randomBytes } from "node:crypto"
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { type LedgerEvent } from "@armory/goal-store"
import { deriveStatus, evaluateGate, fold } from "@armory/goal-store/backend"
import { openPgGoalDatabase, type PgGoalDatabaseClient, type PgWriteStep } from "@armory/goal-store-pg"
import { Result } from "effect"
import { describeRequiring } from "@armory/config/test-components"
import { afterAll, beforeAll, expect, it } from "vitest"
import { tempRoot } from "../../goal-store/test/support/temp.js"
import { closeAdmin, dropSchema, TEST_DATABASE_URL, terminateBackends, uniqueSchema } from "./support/database.js"
import { expectSnapshotMatches } from "./support/pgHarness.js"
import { exitOf, killAll, spawnWorker, startWorkers, type Worker, type WorkerSettings } from "./support/workers.js"

const schema = uniqueSchema("reliability")
const writers = (label: string): WorkerSettings => ({
  databaseUrl: TEST_DATABASE_URL,
  schema,
  applicationName: `armory-goals-test-${label}-${randomBytes(3).toString("hex")}`
})

let database: PgGoalDatabaseClient
const workers: Array<Worker> = []

beforeAll(async () => {
  database = await openPgGoalDatabase({ databaseUrl: TEST_DATABASE_URL, schema, maxConnections: 4 })
})
afterAll(async () => {
  for (const worker of workers) worker.stop()
  killAll()
  await database.close()
  await dropSchema(schema)
  await closeAdmin()
})

const checkpointSummaries = (events: ReadonlyArray<LedgerEvent>) =>
  events.flatMap((event) => (event.kind === "checkpoint" ? [event.checkpoint.summary] : []))

/**
 * What every scenario must leave: whole events only (each row decodes), a contiguous sequence, no
 * event twice, the snapshot row equal to fold(events up to it), and the store reading fold(events).
 */
const expectConsistent = async (sessionId: string, snapshotEvery?: number): Promise<ReadonlyArray<LedgerEvent>> => {
  const store = await database.open({ sessionId })
  const events = await store.events()
  expect(events.map((event) => event.seq)).toEqual(Array.from({ length: events.length }, (_, index) => index + 1))
  const summaries = checkpointSummaries(events)
  expect(new Set(summaries).size).toBe(summaries.length)
  await expectSnapshotMatches(schema, sessionId, database, sessionId, snapshotEvery)
  const folded = fold(events)
  if (Result.isFailure(folded)) throw new Error(folded.failure.reason)
  expect((await store.status()).goal).toEqual(deriveStatus(folded.success).goal)
  return events
}

const readyGoal = async (sessionId: string, snapshotEvery?: number) => {
  const store = await database.open({ sessionId, ...(snapshotEvery === undefined ? {} : { snapshotEvery }) })
  await store.set({ objective: "Ship login", criteria: [{ scenario: "a user logs in", qaChannel: "browser", testRef: "e2e/login.spec.ts" }] })
  await store.addEvidence({ criterionId: "c1", kind: "green", ref: "ci/run/1" })
  await store.addEvidence({ criterionId: "c1", kind: "scenario", ref: "recordings/login.webm" })
  await store.setCriterionStatus({ criterionId: "c1", status: "pass" })
}

describeRequiring("pg", "sixteen writer processes on one session", () => {
  it("commit 16 × 250 mutations: exactly 4,000 events, contiguous sequence, fold(events) = snapshot", async () => {
    await (await database.open({ sessionId: "hammer" })).set({ objective: "Survive sixteen writers" })
    const pool = await startWorkers(16, writers("hammer"))
    workers.push(...pool)
    const replies = await Promise.all(pool.map((worker) => worker.run({ sessionId: "hammer", method: "checkpoint", count: 250 }).done))
    expect(replies.flatMap((reply) => reply.errors)).toEqual([])
    const written = replies.flatMap((reply) => reply.results as ReadonlyArray<string>)
    expect(written).toHaveLength(4000)
    const events = await expectConsistent("hammer")
    expect(events).toHaveLength(4001)
    const checkpoints = checkpointSummaries(events)
    expect(checkpoints.toSorted()).toEqual(written.toSorted())
    const folded = fold(events)
    if (Result.isFailure(folded)) throw new Error(folded.failure.reason)
    expect(new Set(folded.success.goal?.checkpoints.map((checkpoint) => checkpoint.id)).size).toBe(4000)
    for (const worker of pool.slice(2)) worker.stop()
  }, 300_000)
})

describeRequiring("pg", "completion racing new work", () => {
  it("never completes with unmet work over 200 races of complete against addCriterion/addBlocker", async () => {
    const [completer, adder] = workers.length >= 2 ? workers : await startWorkers(2, writers("race"))
    if (completer === undefined || adder === undefined) throw new Error("no workers to race")
    const outcomes = new Map<string, number>()
    for (let race = 0; race < 200; race++) {
      const sessionId = `race-${race}`
      await readyGoal(sessionId)
      const complete = completer.run({ sessionId, method: "complete", count: 1, gated: true })
      const add = adder.run({ sessionId, method: race % 2 === 0 ? "addCriterion" : "addBlocker", count: 1, gated: true })
      await Promise.all([complete.ready, add.ready])
      completer.go()
      adder.go()
      const [completed, added] = await Promise.all([complete.done, add.done])
      const folded = fold(await (await database.open({ sessionId })).events())
      if (Result.isFailure(folded) || folded.success.goal === null) throw new Error("the race lost its goal")
      const goal = folded.success.goal
      expect(goal.status === "complete" && !evaluateGate({ ...goal, status: "active" }).passed).toBe(false)
      const outcome = `complete:${completed.results.length > 0 ? "ok" : completed.errors[0]?.tag} add:${added.results.length > 0 ? "ok" : added.errors[0]?.tag}`
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1)
    }
    for (const outcome of outcomes.keys()) {
      expect(["complete:ok add:GoalAlreadyComplete", "complete:GateRefused add:ok"]).toContain(outcome)
    }
  }, 170_000)
})

/** A writer in its write loop, killed with SIGKILL at a random moment of it. */
const killMidLoop = async (settings: WorkerSettings & { readonly sessionId: string }) => {
  const child = spawnWorker({ ...settings, mode: "loop" })
  const exited = exitOf(child)
  await new Promise<void>((resolve) => child.once("message", () => resolve()))
  await new Promise((resolve) => setTimeout(resolve, Math.random() * 40))
  child.kill("SIGKILL")
  return exited
}

describeRequiring("pg", "writers killed with SIGKILL", () => {
  const KINDS: ReadonlyArray<PgWriteStep | "anywhere"> = ["event-insert", "commit", "snapshot-write", "anywhere"]

  it("survive 50 kill -9 mid-transaction: no partial event, no duplicate, the write in flight absent", async () => {
    const lanes = 2
    const killsPerLane = 25
    const directory = tempRoot()
    const exits: Array<NodeJS.Signals | number | null> = []
    const inFlight: Array<string> = []
    await Promise.all(
      Array.from({ length: lanes }, async (_, lane) => {
        const sessionId = `killed-${lane}`
        await readyGoal(sessionId, 3)
        for (let kill = 0; kill < killsPerLane; kill++) {
          const kind = KINDS[(kill + lane) % KINDS.length] ?? "anywhere"
          const settings = { ...writers(`killed-${lane}`), sessionId, snapshotEvery: 3 }
          const inFlightFile = join(directory, `lane-${lane}-kill-${kill}.txt`)
          exits.push(await (kind === "anywhere" ? killMidLoop(settings) : exitOf(spawnWorker({ ...settings, mode: "crash", step: kind, after: kill % 3, inFlightFile }))))
          if (existsSync(inFlightFile)) inFlight.push(readFileSync(inFlightFile, "utf8"))
          await expectConsistent(sessionId, 3)
        }
        await (await database.open({ sessionId, snapshotEvery: 3 })).checkpoint({ summary: "after the crashes" })
        await expectConsistent(sessionId, 3)
      })
    )
    expect(exits).toEqual(Array.from({ length: lanes * killsPerLane }, () => "SIGKILL"))
    expect(inFlight).toHaveLength(38)
    const stored = await Promise.all(Array.from({ length: lanes }, async (_, lane) => checkpointSummaries(await (await database.open({ sessionId: `killed-${lane}` })).events())))
    expect(stored.flat().filter((summary) => inFlight.includes(summary))).toEqual([])
  }, 300_000)
})

describeRequiring("pg", "the server ending connections mid-write", () => {
  it("lose nothing and duplicate nothing while pg_terminate_backend hits the writers 25 times", async () => {
    const settings = { ...writers("terminated"), maxReconnects: 10 }
    await (await database.open({ sessionId: "terminated" })).set({ objective: "Survive the operator" })
    const pool = await startWorkers(4, settings)
    workers.push(...pool)
    const runs = pool.map((worker) => worker.run({ sessionId: "terminated", method: "checkpoint", count: 150 }).done)
    let terminated = 0
    const killer = (async () => {
      for (let round = 0; round < 25; round++) {
        await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 60))
        terminated += await terminateBackends(settings.applicationName)
      }
    })()
    const replies = await Promise.all(runs)
    await killer
    expect(terminated).toBeGreaterThan(0)
    const events = await expectConsistent("terminated")
    const stored = new Set(checkpointSummaries(events))
    const succeeded = replies.flatMap((reply) => reply.results as ReadonlyArray<string>)
    expect(succeeded.filter((summary) => !stored.has(summary))).toEqual([])
    const failed = replies.flatMap((reply, index) => reply.errors.map((error) => ({ ...error, summary: `pid ${pool[index]?.process.pid} write ${error.index}` })))
    expect(failed.map((error) => [error.tag, error.committed])).toEqual(failed.map(() => ["StorageFailure", false]))
    const saidAbsent = failed.filter((error) => !(error.reason ?? "").startsWith("the outcome is unknown"))
    expect(saidAbsent.filter((error) => stored.has(error.summary))).toEqual([])
    const written = replies.reduce((total, reply) => total + reply.results.length, 0)
    expect(written).toBeGreaterThan(500)
    expect(stored.size).toBeGreaterThanOrEqual(written)
  }, 170_000)
})
