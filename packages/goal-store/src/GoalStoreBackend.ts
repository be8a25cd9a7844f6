import { Clock, Effect, Result, Schema } from "effect"
import type { GoalStatusReport } from "./Gate.js"
import { type DecideContext, type Decision, deriveStatus, statusOf } from "./GoalRules.js"
import { type GoalStoreError, InvalidInput, type StorageFailure } from "./Errors.js"
import type { GoalState } from "./Goal.js"
import { GOAL_OPERATION_NAMES, type GoalMutationName, type GoalReadName, type InputOf, isMutationName, mutationOf, type OutputOf } from "./GoalOperations.js"
import { ReplayOperator } from "./internal/ReplayOperator.js"
import { renderSnapshot } from "./SnapshotText.js"

/** A mutation as a method: its input may be left out when every field of it is optional (`complete()`). */
export type MutationMethod<N extends GoalMutationName, Answer> = {} extends InputOf<N>
  ? (input?: InputOf<N>) => Answer
  : (input: InputOf<N>) => Answer

/** The mutations of one session as Effects, one per entry of `GOAL_OPERATIONS`. */
export type GoalStoreMutations = { readonly [N in GoalMutationName]: MutationMethod<N, Effect.Effect<OutputOf<N>, GoalStoreError>> }

/** The goal operations of one session. Every mutation is one ledger event, decided and appended atomically. */
export type GoalStoreShape = GoalStoreMutations & {
  readonly sessionId: string
  /** Where the session keeps files: for the file store `ledger.jsonl`, `goals.json` and `evidence/`. */
  readonly directory: string
  readonly status: () => Effect.Effect<GoalStatusReport, GoalStoreError>
  /** The other sessions stored next to this one. */
  readonly sessions: () => Effect.Effect<ReadonlyArray<string>, StorageFailure>
  /** The text a host injects every turn: objective, next unmet criteria and what they owe, blockers, gate. */
  readonly snapshot: () => Effect.Effect<string, GoalStoreError>
}

/**
 * Runs the mutation `name` of a store on `input` (decoded by the store, like any call): the one
 * place a name picks a store's method, so what dispatches by name — the Promise clients, the HTTP
 * server — asserts no method type of its own.
 */
export const runMutation = <N extends GoalMutationName>(store: GoalStoreMutations, name: N, input?: unknown): Effect.Effect<OutputOf<N>, GoalStoreError> =>
  (store[name] as (input?: unknown) => Effect.Effect<OutputOf<N>, GoalStoreError>)(input)

/** The reads, each picked by its name from a store. */
const READS: { readonly [N in GoalReadName]: (store: GoalStoreShape) => Effect.Effect<OutputOf<N>, GoalStoreError> } = {
  status: (store) => store.status(),
  sessions: (store) => store.sessions(),
  snapshot: (store) => store.snapshot()
}

/** Runs the read `name` of a store: with `runMutation`, how a surface calls any operation by its name. */
export const runRead = <N extends GoalReadName>(store: GoalStoreShape, name: N): Effect.Effect<OutputOf<N>, GoalStoreError> => READS[name](store)

/**
 * Builds one method per mutation name. A record built key by key is not one TypeScript can type by
 * its keys, so the result is asserted here, once, from `make`'s own per-name type.
 */
export const mutationMethods = <R extends { readonly [N in GoalMutationName]: unknown }>(make: <N extends GoalMutationName>(name: N) => R[N]): R =>
  Object.fromEntries(GOAL_OPERATION_NAMES.filter(isMutationName).map((name) => [name, make(name)])) as unknown as R

/**
 * What a storage backend provides; the rules come from the shared domain. `transact` must give
 * `decide` the state as of the latest committed event and append the event it decides (a `Commit`, or
 * the `record` of a `Refuse`) so that no other writer's event can land between that state and it.
 */
export interface GoalStoreBackend {
  readonly sessionId: string
  readonly directory: string
  readonly transact: <A>(decide: (state: GoalState, context: DecideContext) => Decision<A>) => Effect.Effect<A, GoalStoreError>
  /** The latest committed state. */
  readonly read: () => Effect.Effect<GoalState, GoalStoreError>
  readonly sessions: () => Effect.Effect<ReadonlyArray<string>, StorageFailure>
}

/** A decoder for an operation's input: whatever does not fit its Schema is `InvalidInput`. */
const inputDecoder = <I>(schema: Schema.Codec<I, unknown>) => {
  const decode = Schema.decodeUnknownResult(schema)
  return (input: unknown): Effect.Effect<I, InvalidInput> => {
    const decoded = decode(input)
    return Result.isSuccess(decoded)
      ? Effect.succeed(decoded.success)
      : Effect.fail(new InvalidInput({ reason: decoded.failure.message.replace(/\s+/g, " ") }))
  }
}

/** The time a decision is stamped with, from the Effect clock so tests can control it. */
export const decideContext = (sessionId: string): Effect.Effect<DecideContext> =>
  Effect.map(Clock.currentTimeMillis, (millis) => ({ now: new Date(millis).toISOString(), sessionId }))

/** How a store is opened besides its backend. */
export interface GoalStoreAccess {
  /**
   * Who operates this store, for the ledger. Only a store opened with an operator honours `force`
   * (changing a goal that is already complete, never opening the gate), and every forced event
   * records this name. Model-facing surfaces open stores without one.
   */
  readonly operator?: string | undefined
}

/** The goal store over a backend: input validation, the domain's decisions, status and snapshot text. */
export const goalStoreFromBackend = (backend: GoalStoreBackend, access: GoalStoreAccess = {}): GoalStoreShape => {
  const operator = access.operator
  const mutations = mutationMethods<GoalStoreMutations>(<N extends GoalMutationName>(name: N) => {
    const entry = mutationOf(name)
    const decode = inputDecoder(entry.input)
    // No stack trace on the span: it would always name this line, and capturing it costs every call.
    const method = (input: unknown = {}): Effect.Effect<OutputOf<N>, GoalStoreError> =>
      Effect.gen(function* () {
        const decoded = yield* decode(input)
        const acting = (yield* ReplayOperator) ?? operator
        return yield* backend.transact((state, context) =>
          entry.decide(state, acting === undefined ? context : { ...context, operator: acting }, decoded)
        )
      }).pipe(Effect.withSpan(`GoalStore.${name}`, undefined, { captureStackTrace: false }))
    return method as GoalStoreMutations[N]
  })

  const status = Effect.fn("GoalStore.status")(function* () {
    return statusOf(deriveStatus(yield* backend.read()))
  })

  return {
    ...mutations,
    sessionId: backend.sessionId,
    directory: backend.directory,
    status,
    sessions: backend.sessions,
    snapshot: Effect.fn("GoalStore.snapshot")(function* () {
      return renderSnapshot(yield* status())
    })
  }
}
