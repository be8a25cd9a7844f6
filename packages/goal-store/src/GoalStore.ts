import { Context, Layer } from "effect"
import type { GoalStoreError } from "./Errors.js"
import { type GoalStoreOptions, makeScopedFileGoalStore } from "./FileGoalStore.js"
import type { GoalStoreShape } from "./GoalStoreBackend.js"

/** The goal store service: one session's goal, on whichever backend provides it. */
export class GoalStore extends Context.Service<GoalStore, GoalStoreShape>()("@armory/goal-store/GoalStore") {
  /** The store over files under `root` (default `.armory/goals`), for one session; closing the layer brings `goals.json` up to date. */
  static readonly layerFile = (options: GoalStoreOptions = {}): Layer.Layer<GoalStore, GoalStoreError> =>
    Layer.effect(GoalStore, makeScopedFileGoalStore(options))
  /** The store of the root aggregate under `.armory/goals` in the working directory. */
  static readonly layer: Layer.Layer<GoalStore, GoalStoreError> = Layer.suspend(() => GoalStore.layerFile({}))
}
