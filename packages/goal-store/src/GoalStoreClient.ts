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
import { type GoalStoreOptions, makeFileGoalStore } from "./GoalStore.js"
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

/** The Promise face of an opened store, whichever backend it runs on. */
export const goalStoreClient = (store: GoalStoreShape): GoalStoreClient => ({
  sessionId: store.sessionId,
  directory: store.directory,
  set: (input) => Effect.runPromise(store.set(input)),
  addCriterion: (input) => Effect.runPromise(store.addCriterion(input)),
  addEvidence: (input) => Effect.runPromise(store.addEvidence(input)),
  setCriterionStatus: (input) => Effect.runPromise(store.setCriterionStatus(input)),
  steer: (input) => Effect.runPromise(store.steer(input)),
  checkpoint: (input) => Effect.runPromise(store.checkpoint(input)),
  addBlocker: (input) => Effect.runPromise(store.addBlocker(input)),
  resolveBlocker: (input) => Effect.runPromise(store.resolveBlocker(input)),
  setGoalStatus: (input) => Effect.runPromise(store.setGoalStatus(input)),
  complete: (input = {}) => Effect.runPromise(store.complete(input)),
  status: () => Effect.runPromise(store.status()),
  sessions: () => Effect.runPromise(store.sessions()),
  snapshot: () => Effect.runPromise(store.snapshot())
})

/** Opens a session of the file store (default root `.armory/goals`, the root aggregate). */
export const openGoalStore = async (options: GoalStoreOptions = {}): Promise<GoalStoreClient> =>
  goalStoreClient(await Effect.runPromise(makeFileGoalStore(options)))
