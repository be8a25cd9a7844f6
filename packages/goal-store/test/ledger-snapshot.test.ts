import { copyFileSync, existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import {
  GateRefused,
  GoalStore,
  type GoalStoreClient,
  type GoalStoreShape,
  MalformedState,
  openGoalStore,
  repairGoalStore,
  SETTLE_AFTER_MS,
  SNAPSHOT_LAG_BYTES
} from "@armory/goal-store"
import { acquireLock, type HeldLock } from "@armory/goal-store/backend"
import { Effect, Exit, Scope } from "effect"
import { describe, expect, it } from "vitest"
import { expectSnapshotOfLedger, foldLedger, ledgerOf, rebuiltSnapshot, snapshotText } from "./support/files.js"
import { readyGoal, rejection, sha256, tempRoot } from "./support/temp.js"

const ledgerSize = (root: string) => statSync(join(root, "ledger.jsonl")).size
const snapshotOf = (root: string) => JSON.parse(snapshotText(root)) as { readonly seq: number; readonly ledgerBytes: number }

const throughLayer = <A>(root: string, use: (goals: GoalStoreShape) => Effect.Effect<A, unknown>): Promise<A> =>
  Effect.runPromise(
    Effect.gen(function* () {
      return yield* use(yield* GoalStore)
    }).pipe(Effect.provide(GoalStore.layerFile({ root })))
  )

interface Write {
  readonly rewritten: boolean
  /** Ledger bytes past the snapshot before this write's snapshot decision. */
  readonly tail: number
  readonly snapshotSize: number
}

/** Sets the goal, then writes ~4 KB checkpoints until `goals.json` is replaced, noting each write. */
const writeUntilRewritten = async (root: string, store: GoalStoreClient, objective: string): Promise<ReadonlyArray<Write>> => {
  await store.set({ objective, criteria: [{ scenario: "a user logs in", qaChannel: "browser", testRef: "e2e/login.spec.ts" }] })
  const first = expectSnapshotOfLedger(root)
  expect(first).toMatchObject({ seq: 1, ledgerBytes: ledgerSize(root) })
  const snapshotSize = readFileSync(join(root, "goals.json")).length
  const writes: Array<Write> = []
  for (let index = 0; index < 100 && !writes.some((write) => write.rewritten); index++) {
    await store.checkpoint({ summary: `${index} ${"long summary ".repeat(300)}` })
    const now = expectSnapshotOfLedger(root)
    writes.push({ rewritten: now.seq !== first.seq, tail: ledgerSize(root) - first.ledgerBytes, snapshotSize })
    expect(now.seq === first.seq || now.ledgerBytes === ledgerSize(root)).toBe(true)
  }
  return writes
}

describe("a goals.json behind the ledger", () => {
  it("is folded with the ledger after it on open, and left as it is by readers", async () => {
    const root = tempRoot()
    const store = await readyGoal(root)
    await store.addBlocker({ detail: "review" })
    await store.checkpoint({ summary: "after the snapshot" })
    expect(snapshotOf(root).seq).toBe(1)
    const before = sha256(join(root, "goals.json"))
    const reopened = await openGoalStore({ root })
    expect((await reopened.status()).goal).toEqual(foldLedger(root).goal)
    expect((await reopened.status()).goal?.status).toBe("review_blocked")
    expect(await reopened.snapshot()).toBe(await store.snapshot())
    expect(sha256(join(root, "goals.json"))).toBe(before)
    const ledger = join(root, "ledger.jsonl")
    const lines = readFileSync(ledger, "utf8").split("\n")
    writeFileSync(ledger, [...lines.slice(0, 4), lines[4]?.replace('"seq":5', '"seq":"5"'), ...lines.slice(5)].join("\n"))
    expect(await rejection(openGoalStore({ root }))).toMatchObject({ _tag: "MalformedState", file: ledger, line: 5 })
  })

  it("is malformed when it is not the ledger's fold at the sequence it names, and left byte for byte", async () => {
    const root = tempRoot()
    await readyGoal(root)
    const file = join(root, "goals.json")
    writeFileSync(file, snapshotText(root).replace('"testRef":"e2e/login.spec.ts"', '"testRef":"e2e/logout.spec.ts"'))
    const before = sha256(file)
    const error = await rejection(openGoalStore({ root }))
    expect(error).toBeInstanceOf(MalformedState)
    expect(error).toMatchObject({ file, reason: "the snapshot does not match the ledger at sequence 1" })
    expect(sha256(file)).toBe(before)
    const dryRun = await repairGoalStore({ root, dryRun: true })
    expect(dryRun.actions).toEqual([expect.stringMatching(/^move the untrusted goals\.json aside to .+ and rebuild it from the ledger \(sequence 4\)$/)])
  })

  it("is refused with both files untouched when it names bytes the ledger does not end that event at", async () => {
    const root = tempRoot()
    await readyGoal(root)
    const file = join(root, "goals.json")
    writeFileSync(file, snapshotText(root).replace(/"ledgerBytes":\d+/, '"ledgerBytes":7'))
    const before = [sha256(file), sha256(join(root, "ledger.jsonl"))]
    const error = await rejection(openGoalStore({ root }))
    expect(error).toMatchObject({ _tag: "MalformedState", file, reason: expect.stringMatching(/at ledger byte 7, but the ledger has it at byte \d+: the ledger was rewritten$/) })
    expect([sha256(file), sha256(join(root, "ledger.jsonl"))]).toEqual(before)
  })

  it.each([
    ["deleted", (ledger: string) => rmSync(ledger)],
    ["cut by one event", (ledger: string) => writeFileSync(ledger, readFileSync(ledger, "utf8").split("\n").slice(0, -2).join("\n") + "\n")],
    ["emptied", (ledger: string) => writeFileSync(ledger, "")]
  ])("is the only copy left when the ledger was %s: refused, both files untouched, and repair rebuilds from what is left", async (_, damage) => {
    const root = tempRoot()
    const store = await readyGoal(root)
    await store.checkpoint({ summary: "brings goals.json up to date" })
    await (await openGoalStore({ root })).status()
    const file = join(root, "goals.json")
    const ledger = join(root, "ledger.jsonl")
    writeFileSync(file, rebuiltSnapshot(root))
    damage(ledger)
    const before = [sha256(file), existsSync(ledger) ? sha256(ledger) : "no ledger"]
    const error = await rejection(openGoalStore({ root }))
    expect(error).toMatchObject({ _tag: "MalformedState", file, reason: expect.stringMatching(/^the snapshot reflects sequence 5 but the ledger ends at \d: the ledger was cut or deleted/) })
    expect([sha256(file), existsSync(ledger) ? sha256(ledger) : "no ledger"]).toEqual(before)
    const report = await repairGoalStore({ root })
    expect(report.actions[0]).toMatch(/^move the untrusted goals\.json aside/)
  })

  it("is rewritten once the ledger grows SNAPSHOT_LAG_BYTES past it, or its own size when that is more", async () => {
    const small = tempRoot()
    const smallWrites = await writeUntilRewritten(small, await openGoalStore({ root: small }), "Ship login")
    expect(smallWrites.map((write) => write.rewritten)).toEqual(smallWrites.map((write) => write.tail >= SNAPSHOT_LAG_BYTES))
    const large = tempRoot()
    const objective = `Ship login ${"and everything around it ".repeat(5000)}`
    const largeWrites = await writeUntilRewritten(large, await openGoalStore({ root: large }), objective)
    const size = largeWrites[0]?.snapshotSize ?? 0
    expect(size).toBeGreaterThan(SNAPSHOT_LAG_BYTES + 16_384)
    expect(largeWrites.map((write) => write.rewritten)).toEqual(largeWrites.map((write) => write.tail >= size))
  })

  it("is brought up to date when a layer that wrote closes; a layer that only read writes nothing", async () => {
    const root = tempRoot()
    await readyGoal(root)
    const before = sha256(join(root, "goals.json"))
    const status = await throughLayer(root, (goals) => goals.status())
    expect(status.gate.passed).toBe(true)
    expect(sha256(join(root, "goals.json"))).toBe(before)
    await throughLayer(root, (goals) =>
      Effect.gen(function* () {
        yield* goals.checkpoint({ summary: "one" })
        yield* goals.checkpoint({ summary: "two" })
        expect(snapshotOf(root).seq).toBe(1)
      })
    )
    expect(snapshotText(root)).toBe(rebuiltSnapshot(root))
    expect(snapshotOf(root).seq).toBe(6)
  })

  it("is not flushed when the lock is busy at close, and the close gives up instead of waiting for it", async () => {
    const root = tempRoot()
    await readyGoal(root)
    let other: HeldLock | undefined
    // Another writer holds the session lock, and keeps it, while the layer closes.
    const otherScope = await Effect.runPromise(Scope.make())
    await throughLayer(root, (goals) =>
      Effect.gen(function* () {
        yield* goals.checkpoint({ summary: "one" })
        other = yield* acquireLock(join(root, ".lock")).pipe(Scope.provide(otherScope))
      })
    )
    // The close returned while the other writer still holds the lock: it did not wait for it, and a
    // close that waited like a writer (30 s) would outlive this test's 20 s.
    if (other === undefined) throw new Error("the other writer never took the lock")
    await Effect.runPromise(other.verify)
    expect(snapshotOf(root).seq).toBe(1)
    await Effect.runPromise(Scope.close(otherScope, Exit.void))
    expect(existsSync(join(root, ".lock"))).toBe(false)
  }, 20_000)

  it("does not turn a refusal into a storage failure when the snapshot due then cannot be written", async () => {
    const root = tempRoot()
    const store = await openGoalStore({ root })
    await store.set({ objective: "Ship login", criteria: [{ scenario: "a user logs in", qaChannel: "browser", testRef: "e2e/login.spec.ts" }] })
    rmSync(join(root, "goals.json"))
    const failing = await openGoalStore({
      root,
      faults: {
        beforeStep: (step) => {
          if (step === "snapshot-write") throw new Error("disk full")
        }
      }
    })
    expect(await rejection(failing.complete())).toBeInstanceOf(GateRefused)
    expect(existsSync(join(root, "goals.json"))).toBe(false)
    expect((await store.status()).goal?.status).toBe("active")
  })

  it("needs no repair", async () => {
    const root = tempRoot()
    const store = await readyGoal(root)
    await store.checkpoint({ summary: "behind" })
    const before = sha256(join(root, "goals.json"))
    const report = await repairGoalStore({ root })
    expect(report).toMatchObject({ actions: [], applied: false })
    expect(sha256(join(root, "goals.json"))).toBe(before)
  })
})

describe("a ledger replaced under an open store", () => {
  it("is the one the next write appends to, continuing its sequence", async () => {
    const root = tempRoot()
    const store = await readyGoal(root)
    const ledger = join(root, "ledger.jsonl")
    // A new file at the path, as repair leaves it: the store must not write to the one it replaced.
    copyFileSync(ledger, `${ledger}.copy`)
    const replacedIno = statSync(ledger).ino
    renameSync(`${ledger}.copy`, ledger)
    expect(statSync(ledger).ino).not.toBe(replacedIno)
    await store.checkpoint({ summary: "into the new file" })
    expect(ledgerOf(root).events.map((event) => event.seq)).toEqual([1, 2, 3, 4, 5])
    expect(foldLedger(root).goal?.checkpoints.map((checkpoint) => checkpoint.summary)).toEqual(["into the new file"])
    expect(existsSync(join(root, "ledger.quarantine"))).toBe(false)
  })
})

describe("a ledger replaced while a writer holds the lock between writes", () => {
  it("is the one the writer's next write appends to, not the file it replaced", async () => {
    const root = tempRoot()
    await (await readyGoal(root)).checkpoint({ summary: "settled" })
    const ledger = join(root, "ledger.jsonl")
    const summaries = await throughLayer(root, (goals) =>
      Effect.gen(function* () {
        // Back to back in one fiber, the store keeps its lease (and its open ledger) between the writes.
        yield* goals.checkpoint({ summary: "before" })
        yield* Effect.sync(() => {
          copyFileSync(ledger, `${ledger}.copy`)
          renameSync(`${ledger}.copy`, ledger)
        })
        yield* goals.checkpoint({ summary: "into the new file" })
        return (yield* goals.status()).goal?.checkpoints.map((checkpoint) => checkpoint.summary)
      })
    )
    expect(summaries).toEqual(["settled", "before", "into the new file"])
    expect(foldLedger(root).goal?.checkpoints.map((checkpoint) => checkpoint.summary)).toEqual(["settled", "before", "into the new file"])
  })
})

describe("goals.json once a writer finishes", () => {
  it("is brought up to date by the Promise client once it has been idle after its writes", async () => {
    const root = tempRoot()
    const store = await readyGoal(root)
    for (let index = 0; index < 5; index++) await store.checkpoint({ summary: `write ${index}` })
    expect(snapshotOf(root).ledgerBytes).toBeLessThan(ledgerSize(root))
    await new Promise((resolve) => setTimeout(resolve, SETTLE_AFTER_MS * 5))
    expect(snapshotText(root)).toBe(rebuiltSnapshot(root))
  })
})
