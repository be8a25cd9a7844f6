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
  // Counted from the moment no call is in flight: a write waiting its turn for the session lock must
  // not have the settling compete with it for that lock.
  const settleLater = () => {
    inFlight -= 1
    if (settle === undefined || inFlight > 0) return
    timer = setTimeout(() => {
      timer = undefined
      // `settle` handles its own failures; what is left (a defect) only leaves goals.json behind, which the next open mends.
      Effect.runPromise(settle).catch(() => undefined)
    }, SETTLE_AFTER_MS)
  }
  const write = <A, E>(effect: Effect.Effect<A, E>): Promise<A> => {
    inFlight += 1
    clearTimeout(timer)
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
