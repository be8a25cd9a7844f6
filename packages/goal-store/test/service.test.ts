import { mkdirSync, writeFileSync } from "node:fs"
import { hostname } from "node:os"
import { join } from "node:path"
import { openGoalStore } from "@armory/goal-store"
import { acquireLock } from "@armory/goal-store/backend"
import { describe, expect, it } from "@effect/vitest"
import { Clock, Effect } from "effect"
import { describeGoalStoreService } from "./support/behaviour.js"
import { fileHarness } from "./support/fileHarness.js"
import { readyGoal, rejection, tempRoot } from "./support/temp.js"

describeGoalStoreService("file store", fileHarness)

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
