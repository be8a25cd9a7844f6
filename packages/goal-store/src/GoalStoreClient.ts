import { Effect } from "effect"
import type {
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
import type { GoalStatusReport } from "./Domain.js"
import type { Blocker, Checkpoint, Criterion, Evidence, Goal, Steering } from "./Goal.js"
import type { GoalStoreShape } from "./GoalStoreBackend.js"

/**
 * The goal store without Effect: every method takes one object and returns a Promise that rejects
 * with the same tagged errors the Effect service fails with (`GateRefused`, `MalformedState`, …).
 */
export interface GoalStoreClient {
  readonly sessionId: string
  readonly directory: string
  set(input: SetInput): Promise<Goal>
  addCriterion(input: AddCriterionInput): Promise<Criterion>
  addEvidence(input: AddEvidenceInput): Promise<Evidence>
  setCriterionStatus(input: SetCriterionStatusInput): Promise<Criterion>
  steer(input: SteerInput): Promise<Steering>
  checkpoint(input: CheckpointInput): Promise<Checkpoint>
  addBlocker(input: AddBlockerInput): Promise<Blocker>
  resolveBlocker(input: ResolveBlockerInput): Promise<Blocker>
  setGoalStatus(input: SetGoalStatusInput): Promise<Goal>
  complete(input?: CompleteInput): Promise<Goal>
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
 * the client has been idle for `SETTLE_AFTER_MS` after a write; it never fails.
 */
export const goalStoreClient = (store: GoalStoreShape, settle?: Effect.Effect<void>): GoalStoreClient => {
  let timer: ReturnType<typeof setTimeout> | undefined
  const settleLater = () => {
    if (settle === undefined) return
    clearTimeout(timer)
    timer = setTimeout(() => {
      timer = undefined
      // `settle` handles its own failures; what is left (a defect) only leaves goals.json behind, which the next open mends.
      Effect.runPromise(settle).catch(() => undefined)
    }, SETTLE_AFTER_MS)
  }
  const write = <A, E>(effect: Effect.Effect<A, E>): Promise<A> => Effect.runPromise(effect).finally(settleLater)
  return {
    sessionId: store.sessionId,
    directory: store.directory,
    set: (input) => write(store.set(input)),
    addCriterion: (input) => write(store.addCriterion(input)),
    addEvidence: (input) => write(store.addEvidence(input)),
    setCriterionStatus: (input) => write(store.setCriterionStatus(input)),
    steer: (input) => write(store.steer(input)),
    checkpoint: (input) => write(store.checkpoint(input)),
    addBlocker: (input) => write(store.addBlocker(input)),
    resolveBlocker: (input) => write(store.resolveBlocker(input)),
    setGoalStatus: (input) => write(store.setGoalStatus(input)),
    complete: (input = {}) => write(store.complete(input)),
    status: () => Effect.runPromise(store.status()),
    sessions: () => Effect.runPromise(store.sessions()),
    snapshot: () => Effect.runPromise(store.snapshot())
  }
}
