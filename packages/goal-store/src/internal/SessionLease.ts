import { join } from "node:path"
import { Clock, Effect, Exit, Scope, Semaphore } from "effect"
import type { LockUnavailable, MalformedState, StorageFailure } from "../Errors.js"
import type { FaultHooks } from "../Faults.js"
import { LEDGER_FILE } from "../Ledger.js"
import { acquireLock, HAND_OVER_MS, type HeldLock, type LockOptions, noLock } from "../Lock.js"
import { type OpenLedger, openLedger } from "./ledgerFile.js"

/**
 * How long a store writing back to back keeps the lock after another writer asked for it: a burst of
 * a few writes per hold, rather than one, keeps the hand-over pauses from dominating under contention.
 */
const KEEP_WHEN_ASKED_NANOS = 4_000_000n
/**
 * How often a holder writing back to back looks whether another writer asked for the lock: a look is
 * a system call, and a writer that asks waits some milliseconds between its tries anyway.
 */
const ASKED_CHECK_NANOS = 1_000_000n

const monotonicNow = Clock.clockWith((clock) => clock.monotonicTimeNanos)

/** The session lock and the ledger opened under it, for the write cycles of one hold. */
export interface Lease {
  readonly lock: HeldLock
  readonly ledger: OpenLedger
}

/** A lease this store holds: since when (monotonic nanoseconds), and the scope that holds the lock and its heartbeat. */
interface Held {
  readonly _tag: "Held"
  readonly lease: Lease
  readonly since: bigint
  /** When this holder last looked whether another writer asked for the lock. */
  readonly askedCheckedAt: bigint
  readonly scope: Scope.Closeable
}

/** No lease: `handedOver` when this store let go because another writer asked, so its next take waits for that writer first. */
interface Free {
  readonly _tag: "Free"
  readonly handedOver: boolean
}

/**
 * Where a store stands with its session lock: its tenure, how many cycles are running or waiting for
 * their turn, and whether a check for idleness is already scheduled.
 */
export interface LeaseState {
  readonly tenure: Held | Free
  readonly cycles: number
  readonly idleCheckPending: boolean
}

export type LeaseEvent =
  | { readonly _tag: "CycleQueued" }
  | { readonly _tag: "CycleDone" }
  | { readonly _tag: "Taken"; readonly held: Held }
  | { readonly _tag: "LedgerReopened"; readonly ledger: OpenLedger }
  | { readonly _tag: "AskedChecked"; readonly at: bigint }
  | { readonly _tag: "Ended"; readonly handedOver: boolean }
  /** A take begins: a pause owed to a writer this store handed over to is paid by this take alone. */
  | { readonly _tag: "TakeStarted" }
  | { readonly _tag: "IdleCheckScheduled" }
  | { readonly _tag: "IdleCheckRan" }

export const initialLeaseState: LeaseState = { tenure: { _tag: "Free", handedOver: false }, cycles: 0, idleCheckPending: false }

/** Every change of a lease's state, in one place. */
export const nextLeaseState = (state: LeaseState, event: LeaseEvent): LeaseState => {
  switch (event._tag) {
    case "CycleQueued":
      return { ...state, cycles: state.cycles + 1 }
    case "CycleDone":
      return { ...state, cycles: state.cycles - 1 }
    case "Taken":
      return { ...state, tenure: event.held }
    case "LedgerReopened":
      return state.tenure._tag === "Held" ? { ...state, tenure: { ...state.tenure, lease: { ...state.tenure.lease, ledger: event.ledger } } } : state
    case "AskedChecked":
      return state.tenure._tag === "Held" ? { ...state, tenure: { ...state.tenure, askedCheckedAt: event.at } } : state
    case "Ended":
      return { ...state, tenure: { _tag: "Free", handedOver: event.handedOver } }
    case "TakeStarted":
      return state.tenure._tag === "Free" ? { ...state, tenure: { _tag: "Free", handedOver: false } } : state
    case "IdleCheckScheduled":
      return { ...state, idleCheckPending: true }
    case "IdleCheckRan":
      return { ...state, idleCheckPending: false }
  }
}

/** What ends a cycle's hold: a failure ends the lease; else another writer asking (after a short keep) hands it over; else idleness ends it. */
type AfterCycle = "end" | "handOver" | "endWhenIdle"

export interface SessionLeaseOptions {
  readonly directory: string
  /** `false` holds no lock (the test seam that shows what the lock prevents). */
  readonly locking: boolean
  readonly lock: LockOptions | undefined
  readonly faults: FaultHooks
  /** Makes the session directory exist before the first lock is taken in it. */
  readonly prepare: Effect.Effect<void, StorageFailure>
  /** What a failure to open the ledger is. */
  readonly ledgerFailure: (error: unknown) => MalformedState | StorageFailure
}

export interface SessionLease {
  /**
   * Runs `use` holding the lease, one cycle at a time. A store keeps the lease between cycles for as
   * long as it writes back to back and no other writer waits, and lets go once its event loop turns
   * with no cycle of its own running or waiting: a burst of writes takes the lock once, while a writer
   * in another process that asks for it gets it within a few milliseconds.
   */
  readonly withLease: <A, E>(
    use: (lease: Lease) => Effect.Effect<A, E>,
    lock?: LockOptions | undefined
  ) => Effect.Effect<A, E | MalformedState | StorageFailure | LockUnavailable>
  /** Ends the lease, once every cycle before it has run. */
  readonly end: Effect.Effect<void>
}

/**
 * The lease of one file session. Its idle checks are fibers of `scope` (the session's), so closing
 * the session stops any still pending.
 */
export const makeSessionLease = Effect.fnUntraced(function* (options: SessionLeaseOptions, scope: Scope.Scope) {
  const { directory, faults } = options
  const ledgerPath = join(directory, LEDGER_FILE)
  const writers = yield* Semaphore.make(1)
  let state = initialLeaseState
  const apply = (event: LeaseEvent) => {
    state = nextLeaseState(state, event)
  }

  /** Closes the ledger and releases the lock, if held; run only with no cycle in progress. */
  const endLease = (handedOver: boolean): Effect.Effect<void> =>
    Effect.suspend(() => {
      const ended = state.tenure
      if (ended._tag === "Free") return Effect.void
      apply({ _tag: "Ended", handedOver })
      ended.lease.ledger.close()
      try {
        faults.beforeStep?.("unlock")
      } catch {
        // An injected unlock failure leaves the lock to be released all the same.
      }
      return Scope.close(ended.scope, Exit.void)
    })

  const renew = (held: Held): Effect.Effect<Lease, MalformedState | StorageFailure> =>
    Effect.try({
      try: () => {
        if (held.lease.ledger.atPath()) return held.lease
        held.lease.ledger.close()
        const ledger = openLedger(ledgerPath)
        apply({ _tag: "LedgerReopened", ledger })
        return { ...held.lease, ledger }
      },
      catch: options.ledgerFailure
    }).pipe(Effect.tapError(() => endLease(false)))

  const take = (free: Free, lockOptions: LockOptions | undefined): Effect.Effect<Lease, MalformedState | StorageFailure | LockUnavailable> =>
    Effect.gen(function* () {
      yield* options.prepare
      if (free.handedOver) yield* Effect.sleep(HAND_OVER_MS)
      // The lease outlives the cycle that takes it, so the lock lives in a scope of its own.
      const leaseScope = yield* Scope.make()
      const held = yield* Effect.gen(function* () {
        const lock = yield* options.locking ? acquireLock(join(directory, ".lock"), lockOptions) : Effect.succeed(noLock(directory))
        const ledger = yield* Effect.try({ try: () => openLedger(ledgerPath), catch: options.ledgerFailure })
        const since = yield* monotonicNow
        return { _tag: "Held", lease: { lock, ledger }, since, askedCheckedAt: since, scope: leaseScope } as const
      }).pipe(Scope.provide(leaseScope), Effect.onError(() => Scope.close(leaseScope, Exit.void)))
      apply({ _tag: "Taken", held })
      return held.lease
    })

  const acquire = (lockOptions: LockOptions | undefined) =>
    Effect.suspend(() => {
      const tenure = state.tenure
      if (tenure._tag === "Held") return renew(tenure)
      apply({ _tag: "TakeStarted" })
      return take(tenure, lockOptions)
    })

  const afterCycle = (exit: Exit.Exit<unknown, unknown>): Effect.Effect<AfterCycle> =>
    Effect.gen(function* () {
      const tenure = state.tenure
      if (Exit.isFailure(exit) || tenure._tag === "Free") return "end"
      const now = yield* monotonicNow
      if (now - tenure.since < KEEP_WHEN_ASKED_NANOS || now - tenure.askedCheckedAt < ASKED_CHECK_NANOS) return "endWhenIdle"
      apply({ _tag: "AskedChecked", at: now })
      return (yield* tenure.lease.lock.contended) ? "handOver" : "endWhenIdle"
    })

  // Runs once the event loop has turned: by then a caller writing back to back has queued its next cycle.
  const idleCheck = Effect.yieldNow.pipe(
    Effect.andThen(
      Effect.suspend(() => {
        apply({ _tag: "IdleCheckRan" })
        return state.cycles === 0 ? Semaphore.withPermitsIfAvailable(writers, 1)(endLease(false)) : Effect.void
      })
    ),
    Effect.asVoid
  )

  const endWhenIdle = Effect.suspend(() => {
    if (state.idleCheckPending) return Effect.void
    apply({ _tag: "IdleCheckScheduled" })
    return Effect.asVoid(Effect.forkIn(idleCheck, scope))
  })

  const release = (_lease: Lease, exit: Exit.Exit<unknown, unknown>) =>
    Effect.flatMap(afterCycle(exit), (after) => {
      switch (after) {
        case "end":
          return endLease(false)
        case "handOver":
          return endLease(true)
        case "endWhenIdle":
          return endWhenIdle
      }
    })

  const lease: SessionLease = {
    withLease: (use, lockOptions = options.lock) =>
      Effect.suspend(() => {
        apply({ _tag: "CycleQueued" })
        return writers.withPermit(Effect.acquireUseRelease(acquire(lockOptions), use, release))
      }).pipe(Effect.ensuring(Effect.sync(() => apply({ _tag: "CycleDone" })))),
    end: writers.withPermit(endLease(false))
  }
  return lease
})
