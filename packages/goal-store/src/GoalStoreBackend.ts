import { Clock, Effect, Result, Schema } from "effect"
import {
  AddBlockerInput,
  AddCriterionInput,
  AddEvidenceInput,
  CheckpointInput,
  CompleteInput,
  ResolveBlockerInput,
  SetCriterionStatusInput,
  SetGoalStatusInput,
  SetInput,
  SteerInput
} from "./Commands.js"
import {
  type DecideContext,
  decideAddBlocker,
  decideAddCriterion,
  decideAddEvidence,
  decideCheckpoint,
  decideComplete,
  decideResolveBlocker,
  decideSetCriterionStatus,
  decideSetGoalStatus,
  decideSet,
  decideSteer,
  type Decision,
  deriveStatus,
  type GoalStatusReport,
  statusOf
} from "./Domain.js"
import { type GoalStoreError, InvalidInput, type StorageFailure } from "./Errors.js"
import type { Blocker, Checkpoint, Criterion, Evidence, Goal, GoalState, Steering } from "./Goal.js"
import { ReplayOperator } from "./internal/ReplayOperator.js"
import { renderSnapshot } from "./SnapshotText.js"

/** The goal operations of one session. Every mutation is one ledger event, decided and appended atomically. */
export interface GoalStoreShape {
  readonly sessionId: string
  /** Where the session keeps files: for the file store `ledger.jsonl`, `goals.json` and `evidence/`. */
  readonly directory: string
  readonly set: (input: SetInput) => Effect.Effect<Goal, GoalStoreError>
  readonly addCriterion: (input: AddCriterionInput) => Effect.Effect<Criterion, GoalStoreError>
  readonly addEvidence: (input: AddEvidenceInput) => Effect.Effect<Evidence, GoalStoreError>
  readonly setCriterionStatus: (input: SetCriterionStatusInput) => Effect.Effect<Criterion, GoalStoreError>
  readonly steer: (input: SteerInput) => Effect.Effect<Steering, GoalStoreError>
  readonly checkpoint: (input: CheckpointInput) => Effect.Effect<Checkpoint, GoalStoreError>
  readonly addBlocker: (input: AddBlockerInput) => Effect.Effect<Blocker, GoalStoreError>
  readonly resolveBlocker: (input: ResolveBlockerInput) => Effect.Effect<Blocker, GoalStoreError>
  readonly setGoalStatus: (input: SetGoalStatusInput) => Effect.Effect<Goal, GoalStoreError>
  readonly complete: (input?: CompleteInput) => Effect.Effect<Goal, GoalStoreError>
  readonly status: () => Effect.Effect<GoalStatusReport, GoalStoreError>
  /** The other sessions stored next to this one. */
  readonly sessions: () => Effect.Effect<ReadonlyArray<string>, StorageFailure>
  /** The text a host injects every turn: objective, next unmet criteria and what they owe, blockers, gate. */
  readonly snapshot: () => Effect.Effect<string, GoalStoreError>
}

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
  const operation = <I, A>(
    name: string,
    schema: Schema.Codec<I, unknown>,
    decide: (state: GoalState, context: DecideContext, input: I) => Decision<A>
  ) => {
    const decode = inputDecoder(schema)
    return (input: unknown): Effect.Effect<A, GoalStoreError> =>
      Effect.gen(function* () {
        const decoded = yield* decode(input)
        const acting = (yield* ReplayOperator) ?? operator
        return yield* backend.transact((state, context) => decide(state, acting === undefined ? context : { ...context, operator: acting }, decoded))
      }).pipe(Effect.withSpan(`GoalStore.${name}`))
  }

  const complete = operation("complete", CompleteInput, decideComplete)

  const status = Effect.fn("GoalStore.status")(function* () {
    return statusOf(deriveStatus(yield* backend.read()))
  })

  return {
    sessionId: backend.sessionId,
    directory: backend.directory,
    set: operation("set", SetInput, decideSet),
    addCriterion: operation("addCriterion", AddCriterionInput, decideAddCriterion),
    addEvidence: operation("addEvidence", AddEvidenceInput, decideAddEvidence),
    setCriterionStatus: operation("setCriterionStatus", SetCriterionStatusInput, decideSetCriterionStatus),
    steer: operation("steer", SteerInput, decideSteer),
    checkpoint: operation("checkpoint", CheckpointInput, decideCheckpoint),
    addBlocker: operation("addBlocker", AddBlockerInput, decideAddBlocker),
    resolveBlocker: operation("resolveBlocker", ResolveBlockerInput, decideResolveBlocker),
    setGoalStatus: operation("setGoalStatus", SetGoalStatusInput, decideSetGoalStatus),
    complete: (input = {}) => complete(input),
    status,
    sessions: backend.sessions,
    snapshot: Effect.fn("GoalStore.snapshot")(function* () {
      return renderSnapshot(yield* status())
    })
  }
}
