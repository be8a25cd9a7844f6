import { Effect } from "effect"
import type { GoalStatusReport } from "./Gate.js"
import type { GoalMutationName, OutputOf } from "./GoalOperations.js"
import { type GoalStoreShape, type MutationMethod, mutationMethods, runMutation } from "./GoalStoreBackend.js"

/** The mutations of one session as Promises, one per entry of `GOAL_OPERATIONS`. */
export type GoalStoreClientMutations = { readonly [N in GoalMutationName]: MutationMethod<N, Promise<OutputOf<N>>> }

/**
 * The goal store without Effect: every method takes one object and returns a Promise that rejects
 * with the same tagged errors the Effect service fails with (`GateRefused`, `MalformedState`, …).
 */
export type GoalStoreClient = GoalStoreClientMutations & {
  readonly sessionId: string
  readonly directory: string
  status(): Promise<GoalStatusReport>
  sessions(): Promise<ReadonlyArray<string>>
  snapshot(): Promise<string>
}

/**
 * How long a Promise client waits, after its last write settles, before it brings what the store keeps
 * besides the ledger (the file store's `goals.json`) up to date; the timer keeps the process alive
 * that long, so the files are current when the program finishes.
 */
export const SETTLE_AFTER_MS = 20

/**
 * The Promise face of an opened store, whichever backend it runs on. `settle`, when given, runs once
 * the client has had no write in flight for `SETTLE_AFTER_MS` after one; it never fails.
 */
export const goalStoreClient = (store: GoalStoreShape, settle?: Effect.Effect<void>): GoalStoreClient => {
  let timer: ReturnType<typeof setTimeout> | undefined
  let inFlight = 0
  const settleNow = () => {
    timer = undefined
    // A write began after the last one settled: the settle waits until it has settled too.
    if (inFlight > 0 || settle === undefined) return
    // `settle` handles its own failures; what is left (a defect) only leaves goals.json behind, which the next open mends.
    Effect.runPromise(settle).catch(() => undefined)
  }
  // Counted from the moment no call is in flight: a write waiting its turn for the session lock must
  // not have the settling compete with it for that lock. One timer, restarted rather than replaced:
  // writing back to back then costs no timer of its own per write.
  const settleLater = () => {
    inFlight -= 1
    if (settle === undefined || inFlight > 0) return
    if (timer === undefined) timer = setTimeout(settleNow, SETTLE_AFTER_MS)
    else timer.refresh()
  }
  const write = <A, E>(effect: Effect.Effect<A, E>): Promise<A> => {
    inFlight += 1
    return Effect.runPromise(effect).finally(settleLater)
  }
  const mutations = mutationMethods<GoalStoreClientMutations>(<N extends GoalMutationName>(name: N) => {
    return ((input?: unknown) => write(runMutation(store, name, input))) as GoalStoreClientMutations[N]
  })
  return {
    ...mutations,
    sessionId: store.sessionId,
    directory: store.directory,
    status: () => Effect.runPromise(store.status()),
    sessions: () => Effect.runPromise(store.sessions()),
    snapshot: () => Effect.runPromise(store.snapshot())
  }
}
