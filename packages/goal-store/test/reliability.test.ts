import { fork } from "node:child_process"
import { readFileSync, rmSync } from "node:fs"
import { join } from "node:path"
import { type Checkpoint, type Criterion, openGoalStore } from "@armory/goal-store"
import { evaluateGate, WRITE_STEPS } from "@armory/goal-store/backend"
import { afterAll, describe, expect, it } from "vitest"
import { expectSnapshotOfLedger, foldLedger, ledgerOf } from "./support/files.js"
import { readyGoal, tempRoot } from "./support/temp.js"
import { startWorkers, WORKER, type Worker } from "./support/workers.js"

const WRITERS = 8

const workers: Array<Worker> = []
const pool = async (count: number) => {
  while (workers.length < count) workers.push(...(await startWorkers(count - workers.length)))
  return workers.slice(0, count)
}
const children = new Set<ReturnType<typeof fork>>()
const spawnWorker = (args: ReadonlyArray<string>) => {
  const child = fork(WORKER, args, { stdio: ["ignore", "inherit", "inherit", "ipc"] })
  children.add(child)
  child.on("exit", () => children.delete(child))
  return child
}
afterAll(() => {
  for (const worker of workers) worker.stop()
  for (const child of children) child.kill("SIGKILL")
})

/** The events a reader can trust: the ledger's lines up to the first one that breaks the sequence. */
const trustedPrefix = (root: string) => {
  const trusted: Array<{ kind: string; seq: number }> = []
  for (const line of readFileSync(join(root, "ledger.jsonl"), "utf8").split("\n")) {
    try {
      const event = JSON.parse(line) as { kind: string; seq: number }
      if (event.seq !== trusted.length + 1) break
      trusted.push(event)
    } catch {
      break
    }
  }
  return trusted
}

const hammer = async (root: string, locking: boolean) => {
  const store = await openGoalStore({ root })
  await store.set({ objective: "Survive eight writers" })
  const replies = await Promise.all(
    (await pool(WRITERS)).map((worker) => worker.run({ root, locking, method: "checkpoint", count: 250 }).done)
  )
  return {
    succeeded: replies.reduce((total, reply) => total + reply.results.length, 0),
    failed: replies.flatMap((reply) => reply.errors)
  }
}

describe("eight writer processes on one session", () => {
  it("commit 8 × 250 mutations: contiguous sequence, no duplicate ids, snapshot = fold of the ledger up to its event", async () => {
    const root = tempRoot()
    const { succeeded, failed } = await hammer(root, true)
    expect(failed).toEqual([])
    expect(succeeded).toBe(2000)
    const events = ledgerOf(root).events
    const mutations = events.filter((event) => event.kind === "checkpoint")
    expect(mutations).toHaveLength(2000)
    expect(events.map((event) => event.seq)).toEqual(Array.from({ length: 2001 }, (_, index) => index + 1))
    const checkpoints = foldLedger(root).goal?.checkpoints ?? []
    expect(new Set(checkpoints.map((checkpoint: Checkpoint) => checkpoint.id)).size).toBe(2000)
    expect(new Set(checkpoints.map((checkpoint: Checkpoint) => checkpoint.summary)).size).toBe(2000)
    expectSnapshotOfLedger(root)
  }, 300_000)

  it("lose updates with the lock disabled (the control run: the test above can fail)", async () => {
    const root = tempRoot()
    const { succeeded, failed } = await hammer(root, false)
    const kept = trustedPrefix(root).filter((event) => event.kind === "checkpoint").length
    expect(failed.length + (succeeded - kept)).toBeGreaterThan(0)
  }, 180_000)

  it("allocate 8 × 50 new criteria with 400 distinct ids", async () => {
    const root = tempRoot()
    await (await openGoalStore({ root })).set({ objective: "Many criteria" })
    const replies = await Promise.all(
      (await pool(WRITERS)).map((worker) => worker.run({ root, method: "addCriterion", count: 50 }).done)
    )
    expect(replies.flatMap((reply) => reply.errors)).toEqual([])
    const ids = replies.flatMap((reply) => reply.results.map((result) => (result as Criterion).id))
    expect(new Set(ids).size).toBe(400)
    expect((await (await openGoalStore({ root })).status()).goal?.criteria.map((criterion) => criterion.id).toSorted()).toEqual(
      ids.toSorted()
    )
  }, 120_000)
})

describe("completion racing new work", () => {
  it("never completes with unmet work over 200 races of complete against addCriterion/addBlocker", async () => {
    const root = tempRoot()
    const [completer, adder] = (await pool(2)) as [Worker, Worker]
    const outcomes = new Map<string, number>()
    for (let race = 0; race < 200; race++) {
      const sessionId = `race-${race}`
      await readyGoal(root, sessionId)
      const complete = completer.run({ root, sessionId, method: "complete", count: 1, gated: true })
      const add = adder.run({ root, sessionId, method: race % 2 === 0 ? "addCriterion" : "addBlocker", count: 1, gated: true })
      await Promise.all([complete.ready, add.ready])
      completer.go()
      adder.go()
      const [completed, added] = await Promise.all([complete.done, add.done])
      const goal = foldLedger(join(root, "sessions", sessionId)).goal
      if (goal === null) throw new Error("the race lost its goal")
      const completedWithUnmetWork = goal.status === "complete" && !evaluateGate({ ...goal, status: "active" }).passed
      expect(completedWithUnmetWork).toBe(false)
      const outcome = `complete:${completed.errors[0] ?? "ok"} add:${added.errors[0] ?? "ok"}`
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1)
    }
    for (const outcome of outcomes.keys()) {
      expect(["complete:ok add:GoalAlreadyComplete", "complete:GateRefused add:ok"]).toContain(outcome)
    }
  }, 170_000)
})

const exitOf = (child: ReturnType<typeof fork>) =>
  new Promise<NodeJS.Signals | number | null>((resolve) => child.on("exit", (code, signal) => resolve(signal ?? code)))

/** After a writer died: the ledger is whole, the store opens, and the next writer takes the lock. */
const expectRecoverable = async (root: string) => {
  const scan = ledgerOf(root)
  expect(scan.events.map((event) => event.seq)).toEqual(Array.from({ length: scan.events.length }, (_, index) => index + 1))
  const reopened = await openGoalStore({ root, lock: { timeoutMs: 5_000 } })
  expect((await reopened.status()).goal).toEqual(foldLedger(root).goal)
  await reopened.checkpoint({ summary: "after the crash" })
  expectSnapshotOfLedger(root)
}

describe("crashes", () => {
  it("survive 100 kill -9 at random moments of a write loop", async () => {
    const lanes = 4
    const killsPerLane = 25
    await Promise.all(
      Array.from({ length: lanes }, async () => {
        const root = tempRoot()
        await readyGoal(root)
        for (let kill = 0; kill < killsPerLane; kill++) {
          const child = spawnWorker(["loop", root])
          const exited = exitOf(child)
          await new Promise<void>((resolve) => child.once("message", () => resolve()))
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 30))
          child.kill("SIGKILL")
          expect(await exited).toBe("SIGKILL")
          await expectRecoverable(root)
        }
      })
    )
  }, 300_000)

  for (const step of WRITE_STEPS) {
    it(`leave the event wholly present or wholly absent when killed before ${step}`, async () => {
      const root = tempRoot()
      await readyGoal(root)
      // Without goals.json the crashing write also writes one, so it passes every step.
      rmSync(join(root, "goals.json"))
      const before = ledgerOf(root).events.length
      const child = spawnWorker(["crash", root, step])
      expect(await exitOf(child)).toBe("SIGKILL")
      const scan = ledgerOf(root)
      expect(scan.tornBytes).toBe(0)
      const crashed = scan.events.filter((event) => event.kind === "checkpoint")
      expect(crashed.length).toBe(step === "ledger-write" ? 0 : 1)
      expect(scan.events.length).toBe(before + crashed.length)
      await expectRecoverable(root)
    })
  }
})
