import { execFileSync } from "node:child_process"
import { copyFileSync, existsSync, lstatSync, mkdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import {
  exportFileLedger,
  GoalStore,
  type GoalStoreClient,
  type GoalStoreShape,
  LEDGER_SCHEMA,
  MalformedState,
  openGoalStore,
  repairGoalStore,
  StorageFailure,
  type WriteStep
} from "@armory/goal-store"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { expectSnapshotOfLedger, foldLedger, ledgerOf, rebuiltSnapshot, snapshotText } from "./support/files.js"
import { readyGoal, rejection, sha256, tempRoot } from "./support/temp.js"

const lines = (root: string) => readFileSync(join(root, "ledger.jsonl"), "utf8").split("\n")

/** Runs `use` on the store as a layer, which brings `goals.json` up to date when it closes. */
const throughLayer = <A>(root: string, use: (goals: GoalStoreShape) => Effect.Effect<A, unknown>): Promise<A> =>
  Effect.runPromise(
    Effect.gen(function* () {
      return yield* use(yield* GoalStore)
    }).pipe(Effect.provide(GoalStore.layerFile({ root })))
  )

describe("ledger and snapshot", () => {
  it("writes one versioned line per event, and a snapshot of the ledger up to an event it names, byte for byte", async () => {
    const root = tempRoot()
    const store = await readyGoal(root)
    await store.checkpoint({ summary: "half way", activeCriterion: "c1" })
    const events = ledgerOf(root).events
    expect(events.map((event) => [event.seq, event.schema])).toEqual([1, 2, 3, 4, 5].map((seq) => [seq, LEDGER_SCHEMA]))
    expect(lines(root).at(-1)).toBe("")
    // The first write creates goals.json; later ones leave it behind until it is due.
    expect(expectSnapshotOfLedger(root).seq).toBe(1)
    await throughLayer(root, (goals) => goals.checkpoint({ summary: "through a layer" }))
    expect(snapshotText(root)).toBe(rebuiltSnapshot(root))
    const snapshot = JSON.parse(snapshotText(root)) as { seq: number; ledgerBytes: number }
    expect(snapshot.seq).toBe(6)
    expect(snapshot.ledgerBytes).toBe(readFileSync(join(root, "ledger.jsonl")).length)
  })

  it("rebuilds a snapshot that is behind the ledger on open, without writing, and persists it on the next write", async () => {
    const root = tempRoot()
    const store = await readyGoal(root)
    const behind = join(root, "behind.json")
    copyFileSync(join(root, "goals.json"), behind)
    await store.addBlocker({ detail: "review" })
    const current = (await store.status()).goal
    copyFileSync(behind, join(root, "goals.json"))
    const before = sha256(join(root, "goals.json"))
    const reopened = await openGoalStore({ root })
    expect((await reopened.status()).goal).toEqual(current)
    expect(sha256(join(root, "goals.json"))).toBe(before)
    rmSync(join(root, "goals.json"))
    const again = await openGoalStore({ root })
    expect((await again.status()).goal).toEqual(current)
    await again.checkpoint({ summary: "after rebuild" })
    expect(snapshotText(root)).toBe(rebuiltSnapshot(root))
  })

  it("derives review_blocked for an older active record with an open blocker, without rewriting it", async () => {
    const root = tempRoot()
    await readyGoal(root)
    await throughLayer(root, (goals) => goals.addBlocker({ detail: "security review" }))
    const older = snapshotText(root).replace('"status":"review_blocked"', '"status":"active"')
    expect(older).not.toBe(snapshotText(root))
    writeFileSync(join(root, "goals.json"), older)
    const before = sha256(join(root, "goals.json"))
    const reopened = await openGoalStore({ root })
    expect((await reopened.status()).goal?.status).toBe("review_blocked")
    expect(sha256(join(root, "goals.json"))).toBe(before)
  })

  it("files evidence per criterion per attempt", async () => {
    const root = tempRoot()
    await readyGoal(root)
    const record = JSON.parse(readFileSync(join(root, "evidence", "c1", "attempt-1", "e2.json"), "utf8")) as Record<string, unknown>
    expect(record).toMatchObject({ id: "e2", criterionId: "c1", kind: "scenario", attempt: 1, ref: "recordings/login.webm" })
  })
})

describe("torn tail", () => {
  it("treats a last line cut at any byte as uncommitted, then quarantines and truncates it on the next write", async () => {
    const root = tempRoot()
    const store = await readyGoal(root)
    const expected = (await store.status()).goal
    await store.checkpoint({ summary: "the last record, about to be torn" })
    const full = readFileSync(join(root, "ledger.jsonl"))
    const lastStart = full.lastIndexOf(0x0a, full.length - 2) + 1
    for (let cut = lastStart; cut < full.length; cut++) {
      writeFileSync(join(root, "ledger.jsonl"), full.subarray(0, cut))
      const reopened = await openGoalStore({ root })
      expect((await reopened.status()).goal).toEqual(expected)
    }
    const torn = full.subarray(lastStart, full.length - 1)
    writeFileSync(join(root, "ledger.jsonl"), full.subarray(0, full.length - 1))
    const writer = await openGoalStore({ root })
    await writer.checkpoint({ summary: "next writer" })
    expect(readFileSync(join(root, "ledger.quarantine")).subarray(0, torn.length).equals(torn)).toBe(true)
    const events = ledgerOf(root).events
    expect(events.map((event) => event.seq)).toEqual([1, 2, 3, 4, 5])
    expect(events.at(-1)).toMatchObject({ kind: "checkpoint", checkpoint: { summary: "next writer" } })
    expectSnapshotOfLedger(root)
  })
})

describe("malformed state", () => {
  it("rejects an interior garbage line naming file and line, bytes unchanged; repair quarantines it", async () => {
    const root = tempRoot()
    await readyGoal(root)
    const ledger = join(root, "ledger.jsonl")
    const original = lines(root)
    writeFileSync(ledger, [...original.slice(0, 2), "{not json", ...original.slice(2)].join("\n"))
    const before = sha256(ledger)
    const snapshotBefore = sha256(join(root, "goals.json"))
    const error = await rejection(openGoalStore({ root }))
    expect(error).toBeInstanceOf(MalformedState)
    expect(error).toMatchObject({ file: ledger, line: 3 })
    expect((error as MalformedState).reason).toMatch(/^not JSON/)
    expect(sha256(ledger)).toBe(before)
    expect(sha256(join(root, "goals.json"))).toBe(snapshotBefore)
    const dryRun = await repairGoalStore({ root, dryRun: true })
    expect(dryRun.applied).toBe(false)
    expect(dryRun.actions[0]).toMatch(/^quarantine 1 ledger line \(line 3: not JSON/)
    expect(sha256(ledger)).toBe(before)
    const report = await repairGoalStore({ root })
    expect(report.applied).toBe(true)
    expect(readFileSync(join(root, "ledger.quarantine"), "utf8")).toBe("{not json\n")
    const repaired = await openGoalStore({ root })
    expect((await repaired.status()).gate.passed).toBe(true)
    expect(ledgerOf(root).events).toHaveLength(4)
    expect(snapshotText(root)).toBe(rebuiltSnapshot(root))
  })

  it.each([
    ["review blocker", (event: Record<string, unknown>) => event["kind"] === "review_blocker"],
    ["criterion", (event: Record<string, unknown>) => event["kind"] === "criterion_added"],
    ["evidence", (event: Record<string, unknown>) => event["kind"] === "evidence_added"],
    ["checkpoint", (event: Record<string, unknown>) => event["kind"] === "checkpoint"],
    ["steering", (event: Record<string, unknown>) => event["kind"] === "steer"]
  ])("refuses a ledger that introduces a %s id twice, bytes unchanged, instead of folding two records under one id", async (series, pick) => {
    const root = tempRoot()
    const store = await readyGoal(root)
    await store.addCriterion({ scenario: "a user logs out", qaChannel: "http", testRef: "api/logout" })
    await store.checkpoint({ summary: "half way" })
    await store.steer({ directive: "do logout first", kind: "reprioritize", evidence: "tickets", rationale: "users are stuck" })
    await store.addBlocker({ detail: "security review" })
    const ledger = join(root, "ledger.jsonl")
    const events = readFileSync(ledger, "utf8").trimEnd().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>)
    const original = events.find(pick)
    writeFileSync(ledger, `${readFileSync(ledger, "utf8")}${JSON.stringify({ ...original, seq: events.length + 1 })}\n`)
    rmSync(join(root, "goals.json"))
    const before = sha256(ledger)
    const error = await rejection(openGoalStore({ root }))
    expect(error).toMatchObject({ _tag: "MalformedState", file: ledger, line: events.length + 1, reason: expect.stringMatching(new RegExp(`^duplicate ${series} id `)) })
    expect(sha256(ledger)).toBe(before)
  })

  it("rejects a line that breaks the sequence", async () => {
    const root = tempRoot()
    await readyGoal(root)
    const original = lines(root)
    writeFileSync(join(root, "ledger.jsonl"), [original[0], original[2], ""].join("\n"))
    expect(await rejection(openGoalStore({ root }))).toMatchObject({ _tag: "MalformedState", line: 2, reason: "sequence 3 does not follow 1" })
  })

  it("rejects a malformed or disagreeing snapshot with its bytes unchanged; repair rebuilds it from the ledger", async () => {
    const root = tempRoot()
    await readyGoal(root)
    const snapshot = join(root, "goals.json")
    const behind = snapshotText(root)
    expect(JSON.parse(behind)).toMatchObject({ seq: 1 })
    writeFileSync(snapshot, behind.replace('"objective":"Ship login"', '"objective":"Ship logout"'))
    const before = sha256(snapshot)
    const error = await rejection(openGoalStore({ root }))
    expect(error).toMatchObject({ _tag: "MalformedState", file: snapshot, reason: "the snapshot does not match the ledger at sequence 1" })
    expect(sha256(snapshot)).toBe(before)
    writeFileSync(snapshot, rebuiltSnapshot(root).replace('"status":"pass"', '"status":"fail"'))
    const current = await rejection(openGoalStore({ root }))
    expect(current).toMatchObject({ _tag: "MalformedState", file: snapshot, reason: "the snapshot does not match the ledger at sequence 4" })
    writeFileSync(snapshot, '{"schema":"armory.goal.snapshot/v1","seq":"four"}')
    const invalid = await rejection(openGoalStore({ root }))
    expect(invalid).toBeInstanceOf(MalformedState)
    expect((invalid as MalformedState).reason).toMatch(/^snapshot rejected/)
    const report = await repairGoalStore({ root })
    expect(report.actions[0]).toMatch(/^move the untrusted goals\.json aside/)
    expect(snapshotText(root)).toBe(rebuiltSnapshot(root))
    expect((await (await openGoalStore({ root })).status()).goal?.objective).toBe("Ship login")
  })
})

/** A write that fails at `step`; the session has no `goals.json`, so this write also writes one. */
const attempt = async (root: string, step: WriteStep): Promise<unknown> => {
  rmSync(join(root, "goals.json"), { force: true })
  const store: GoalStoreClient = await openGoalStore({
    root,
    faults: {
      beforeStep: (current) => {
        if (current === step) throw new Error(`injected ${step} failure`)
      }
    }
  })
  return rejection(store.checkpoint({ summary: `written while ${step} fails` }))
}

const fifo = (path: string) => execFileSync("mkfifo", [path])

describe("a session file that is not a regular file", () => {  it.each([
    ["a FIFO as the ledger", "ledger.jsonl", fifo],
    ["a FIFO as the snapshot", "goals.json", fifo],
    ["a directory as the ledger", "ledger.jsonl", (path: string) => mkdirSync(path)]
  ])("refuses %s with MalformedState, never reading it (a FIFO would block forever), and leaves it", async (_, name, make) => {
    const root = tempRoot()
    await readyGoal(root)
    const path = join(root, name)
    rmSync(path)
    make(path)
    const error = await rejection(openGoalStore({ root }))
    expect(error).toBeInstanceOf(MalformedState)
    expect(error).toMatchObject({ file: path, reason: expect.stringMatching(/^not a regular file/) })
    expect(lstatSync(path).isFile()).toBe(false)
  })

  it("refuses to export a FIFO ledger, never reading it", async () => {
    const root = tempRoot()
    await readyGoal(root)
    const path = join(root, "ledger.jsonl")
    rmSync(path)
    fifo(path)
    const exported = await Effect.runPromise(Effect.flip(exportFileLedger({ root })))
    expect(exported).toMatchObject({ _tag: "MalformedState", file: path })
  })

  it("refuses a FIFO put at the ledger's path under a store that keeps the ledger open", async () => {
    const root = tempRoot()
    const store = await readyGoal(root)
    const path = join(root, "ledger.jsonl")
    rmSync(path)
    fifo(path)
    const error = await rejection(store.checkpoint({ summary: "into a FIFO" }))
    expect(error).toMatchObject({ _tag: "MalformedState", file: path })
  })
})

describe("a server hosting the store", () => {
  it("keeps its event loop turning while a write waits for its fsyncs, with offloadFsync", async () => {
    const root = tempRoot()
    await readyGoal(root)
    const store = await openGoalStore({ root, offloadFsync: true })
    const turned: Array<boolean> = []
    for (let index = 0; index < 10; index++) {
      let ticked = false
      setImmediate(() => {
        ticked = true
      })
      await (index % 2 === 0 ? store.checkpoint({ summary: `write ${index}` }) : store.addEvidence({ criterionId: "c1", kind: "note", ref: `ci/${index}` }))
      turned.push(ticked)
    }
    expect(turned).toEqual(turned.map(() => true))
  })

  it("keeps its event loop turning while an open reads the session's files", async () => {
    const root = tempRoot()
    await readyGoal(root)
    const turned: Array<boolean> = []
    for (let index = 0; index < 5; index++) {
      let ticked = false
      setImmediate(() => {
        ticked = true
      })
      await openGoalStore({ root })
      turned.push(ticked)
    }
    expect(turned).toEqual(turned.map(() => true))
  })
})

describe("evidence records", () => {
  it("are on disk before the evidence_added event is appended, and a failed append commits nothing", async () => {
    const root = tempRoot()
    await readyGoal(root)
    const record = join(root, "evidence", "c1", "attempt-1", "e3.json")
    const seen: Array<boolean> = []
    const store = await openGoalStore({
      root,
      faults: {
        beforeStep: (step) => {
          if (step !== "ledger-write") return
          seen.push(existsSync(record))
          throw new Error("injected ledger-write failure")
        }
      }
    })
    const error = await rejection(store.addEvidence({ criterionId: "c1", kind: "note", ref: "ci/3" }))
    expect(error).toMatchObject({ _tag: "StorageFailure", committed: false })
    expect(seen).toEqual([true])
    expect(foldLedger(root).counters.evidence).toBe(2)
    const evidence = await (await openGoalStore({ root })).addEvidence({ criterionId: "c1", kind: "note", ref: "ci/4" })
    expect(evidence.id).toBe("e3")
    expect(JSON.parse(readFileSync(record, "utf8"))).toMatchObject({ id: "e3", ref: "ci/4" })
  })
})

describe("injected write failures", () => {
  for (const step of ["ledger-write", "ledger-fsync"] as const) {
    it(`fails on ${step} with nothing committed and the ledger as before`, async () => {
      const root = tempRoot()
      await readyGoal(root)
      const before = sha256(join(root, "ledger.jsonl"))
      const error = await attempt(root, step)
      expect(error).toBeInstanceOf(StorageFailure)
      expect(error).toMatchObject({ operation: "ledger append", committed: false, reason: `injected ${step} failure` })
      expect(sha256(join(root, "ledger.jsonl"))).toBe(before)
      expect(existsSync(join(root, "goals.json"))).toBe(false)
    })
  }

  for (const step of ["snapshot-write", "snapshot-fsync", "snapshot-rename", "directory-fsync"] as const) {
    it(`fails on ${step}, says the event is committed, and the next open reads it from the ledger`, async () => {
      const root = tempRoot()
      await readyGoal(root)
      const error = await attempt(root, step)
      expect(error).toBeInstanceOf(StorageFailure)
      expect(error).toMatchObject({ operation: "snapshot write", committed: true })
      const reopened = await openGoalStore({ root })
      expect((await reopened.status()).goal?.checkpoints.map((checkpoint) => checkpoint.summary)).toEqual([`written while ${step} fails`])
      await reopened.checkpoint({ summary: "next" })
      expect(expectSnapshotOfLedger(root).seq).toBe(step === "directory-fsync" ? 5 : 6)
    })
  }

  it("never leaves a ledger shorter than what was committed", async () => {
    const root = tempRoot()
    await readyGoal(root)
    const size = readFileSync(join(root, "ledger.jsonl")).length
    await attempt(root, "ledger-fsync")
    truncateSync(join(root, "ledger.jsonl"), size)
    expect(foldLedger(root).seq).toBe(4)
  })
})
