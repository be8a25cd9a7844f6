import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync, readFileSync, statSync, unlinkSync, utimesSync, writeFileSync } from "node:fs"
import { hostname } from "node:os"
import { join } from "node:path"
import { openGoalStore } from "@armory/goal-store"
import { acquireLock } from "@armory/goal-store/backend"
import { describe, expect, it } from "@effect/vitest"
import { Clock, Effect, Exit, Fiber, Scope } from "effect"
import { describeGoalStoreService } from "./support/behaviour.js"
import { fileHarness } from "./support/fileHarness.js"
import { ledgerOf } from "./support/files.js"
import { readyGoal, rejection, tempRoot } from "./support/temp.js"
import { startWorkers } from "./support/workers.js"

describeGoalStoreService("file store", fileHarness)

describe("the session lock", () => {
  it.live("breaks a lock whose owner process is dead", () =>
    Effect.gen(function* () {
      const lock = join(tempRoot(), ".lock")
      writeFileSync(lock, JSON.stringify({ pid: 2 ** 22 + 7, host: hostname(), token: "dead", acquiredAt: 0 }))
      const held = yield* acquireLock(lock, { timeoutMs: 2_000 })
      expect(held.token).not.toBe("dead")
      expect(JSON.parse(readFileSync(lock, "utf8"))).toMatchObject({ pid: process.pid, token: held.token })
      yield* held.release
      expect(existsSync(lock)).toBe(false)
    })
  )

  for (const [found, make] of [
    ["a FIFO", (path: string) => execFileSync("mkfifo", [path])],
    ["a file of 8 MiB that is no owner record", (path: string) => writeFileSync(path, Buffer.alloc(8 * 1024 * 1024, 0x7b))]
  ] as const) {
    it.live(`breaks ${found} at the lock's path as an ownerless lock, without blocking on it or reading all of it`, () =>
      Effect.gen(function* () {
        const lock = join(tempRoot(), ".lock")
        make(lock)
        const held = yield* acquireLock(lock, { timeoutMs: 5_000 })
        expect(statSync(lock).isFile()).toBe(true)
        expect(JSON.parse(readFileSync(lock, "utf8"))).toMatchObject({ token: held.token })
        yield* held.release
      })
    )
  }

  it.live("breaks an abandoned lock left as a directory by the earlier layout", () =>
    Effect.gen(function* () {
      const lock = join(tempRoot(), ".lock")
      mkdirSync(lock)
      writeFileSync(join(lock, "owner.json"), JSON.stringify({ pid: 2 ** 22 + 7, host: hostname(), token: "dead", acquiredAt: 0 }))
      const past = new Date(Date.now() - 60_000)
      utimesSync(lock, past, past)
      const held = yield* acquireLock(lock, { timeoutMs: 2_000 })
      expect(statSync(lock).isFile()).toBe(true)
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

  it.live("counts its wait from when it runs, on the Effect clock, not from when it was built", () =>
    Effect.gen(function* () {
      const lock = join(tempRoot(), ".lock")
      const held = yield* acquireLock(lock)
      const waiting = acquireLock(lock, { timeoutMs: 100 })
      yield* Effect.sleep(300)
      const real = yield* Clock.Clock
      let reads = 0
      let pauses = 0
      // Monotonic time stands still for the first reads, then jumps past any deadline: only a wait
      // that reads the clock when it runs pauses at all.
      const clock: Clock.Clock = {
        ...real,
        monotonicTimeNanos: Effect.sync(() => (reads++ < 4 ? 0n : 10n ** 12n)),
        sleep: (duration) => Effect.andThen(Effect.sync(() => pauses++), real.sleep(duration))
      }
      const error = yield* Effect.flip(waiting).pipe(Effect.provideService(Clock.Clock, clock))
      expect(error._tag).toBe("LockUnavailable")
      expect(pauses).toBe(3)
      yield* held.release
    })
  )

  it.live("fails the holder's next step, without throwing, once its lock was taken over", () =>
    Effect.gen(function* () {
      const lock = join(tempRoot(), ".lock")
      const held = yield* acquireLock(lock)
      // Broken as stale and taken by another writer: the path now names another file.
      unlinkSync(lock)
      writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname(), token: "intruder", acquiredAt: 0 }), { flag: "wx" })
      const error = yield* Effect.flip(held.verify)
      expect(error._tag).toBe("LockUnavailable")
      yield* held.release
      expect(JSON.parse(readFileSync(lock, "utf8"))).toMatchObject({ token: "intruder" })
    })
  )

  it("fails a write whose lock is held by a live process until the timeout, with nothing written", async () => {
    const root = tempRoot()
    const store = await readyGoal(root)
    const other = await openGoalStore({ root, lock: { timeoutMs: 100 } })
    writeFileSync(join(root, ".lock"), JSON.stringify({ pid: process.pid, host: hostname(), token: "held", acquiredAt: Date.now() }))
    const error = await rejection(other.checkpoint({ summary: "blocked out" }))
    expect(error).toMatchObject({ _tag: "LockUnavailable" })
    expect((await store.status()).goal?.checkpoints).toEqual([])
  })
})

const nextTurn = () => new Promise((resolve) => setImmediate(resolve))

describe("the session lock as a resource of a scope", () => {
  it.live("beats while its scope is open, and closing the scope releases it", () =>
    Effect.gen(function* () {
      const lock = join(tempRoot(), ".lock")
      const scope = yield* Scope.make()
      yield* acquireLock(lock, { heartbeatMs: 20 }).pipe(Scope.provide(scope))
      const past = new Date(Date.now() - 60_000)
      utimesSync(lock, past, past)
      yield* Effect.sleep(100)
      expect(Date.now() - statSync(lock).mtimeMs).toBeLessThan(1_000)
      yield* Scope.close(scope, Exit.void)
      expect(existsSync(lock)).toBe(false)
    })
  )
})

describe("the session lock across a burst of writes", () => {
  it("is taken once for writes back to back, and let go once the event loop turns", async () => {
    const root = tempRoot()
    let unlocks = 0
    const store = await openGoalStore({ root, faults: { beforeStep: (step) => void (step === "unlock" && (unlocks += 1)) } })
    await store.set({ objective: "Burst" })
    for (let index = 0; index < 20; index++) await store.checkpoint({ summary: `write ${index}` })
    expect(existsSync(join(root, ".lock"))).toBe(true)
    expect(unlocks).toBe(0)
    // The release starts once the loop turns with no write queued, and stopping the lock's heartbeat
    // takes the scheduler a few more turns: counted in turns, far fewer than the client's settle
    // delay would take to end the lease on its own.
    for (let turn = 0; turn < 100 && existsSync(join(root, ".lock")); turn++) await nextTurn()
    expect(existsSync(join(root, ".lock"))).toBe(false)
    expect(unlocks).toBe(1)
  })

  it("is handed to a writer in another process that asks for it, while the holder keeps writing", async () => {
    const root = tempRoot()
    const store = await openGoalStore({ root })
    await store.set({ objective: "Hand over" })
    const [worker] = await startWorkers(1)
    if (worker === undefined) throw new Error("no worker started")
    try {
      const progress = { answered: false }
      const asked = worker.run({ root, method: "checkpoint", count: 1 }).done.then((reply) => {
        progress.answered = true
        return reply
      })
      let written = 0
      while (!progress.answered && written < 5000) {
        await store.checkpoint({ summary: `holder ${written}` })
        written += 1
      }
      expect((await asked).errors).toEqual([])
      // The holder wrote back to back all along and never went idle: the worker got the lock because it asked.
      expect(written).toBeLessThan(5000)
      const kinds = ledgerOf(root).events.filter((event) => event.kind === "checkpoint")
      expect(kinds.length).toBe(written + 1)
    } finally {
      worker.stop()
    }
  }, 60_000)

  it.live("tells its holder when another writer is waiting, and the writer that takes it next clears that", () =>
    Effect.gen(function* () {
      const lock = join(tempRoot(), ".lock")
      const held = yield* acquireLock(lock)
      expect(yield* held.contended).toBe(false)
      const waiter = yield* Effect.forkChild(acquireLock(lock, { timeoutMs: 5_000 }))
      yield* Effect.sleep(20)
      expect(yield* held.contended).toBe(true)
      yield* held.release
      const next = yield* Fiber.join(waiter)
      expect(existsSync(`${lock}.wait`)).toBe(false)
      expect(yield* next.contended).toBe(false)
      yield* next.release
    })
  )
})
