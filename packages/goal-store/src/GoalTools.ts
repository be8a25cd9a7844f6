import { Result, Schema } from "effect"
import { InvalidInput } from "./Errors.js"
import {
  GOAL_OPERATION_NAMES,
  GOAL_OPERATIONS,
  type GoalMutationName,
  type GoalOperationName,
  type GoalReadName,
  isMutationName,
  type ModelInputOf,
  mutationOf,
  type OutputOf
} from "./GoalOperations.js"
import type { GoalStoreClient } from "./GoalStoreClient.js"

/**
 * One model-facing goal operation, in the code-mode `Tool` shape: a description, Schemas for the
 * input and output, and `run`. Refusals reject with the store's Schema-backed tagged errors, so a
 * sandbox passes them to the model with their fields (e.g. `GateRefused.unmet`).
 */
export interface GoalTool<I, O> {
  readonly description: string
  readonly input: Schema.Codec<I, unknown>
  readonly output: Schema.Codec<O, unknown>
  readonly run: (input: I) => Promise<O>
}

const NoInput = Schema.Struct({})

/**
 * A tool whose `run` takes its input only as its Schema reads it, whoever calls it: what the Schema
 * does not name (a `force` slipped in by a caller that skipped the types) never reaches the store.
 */
const tool = <I, O>(
  description: string,
  input: Schema.Codec<I, unknown>,
  output: Schema.Codec<O, unknown>,
  run: (input: I) => Promise<O>
): GoalTool<I, O> => {
  const decode = Schema.decodeUnknownResult(input)
  return {
    description,
    input,
    output,
    run: async (given) => {
      const decoded = decode(given)
      if (Result.isFailure(decoded)) throw new InvalidInput({ reason: decoded.failure.message.replace(/\s+/g, " ") })
      return run(decoded.success)
    }
  }
}

/** The goal tools, one per entry of `GOAL_OPERATIONS`: a mutation takes its model input, a read none. */
export type GoalTools = {
  readonly [N in GoalOperationName]: N extends GoalMutationName
    ? GoalTool<ModelInputOf<N>, OutputOf<N>>
    : GoalTool<Record<string, never>, OutputOf<N>>
}

/**
 * The goal operations as a tool namespace for code mode (the litgoal `goal_*` tools), bound to one
 * open store: `await tools.goals.complete({})` and so on. A model is never offered `force`: the
 * inputs are the store's without it, so nothing here can change a complete goal.
 */
export const goalTools = (store: GoalStoreClient): GoalTools => {
  const mutationTool = <N extends GoalMutationName>(name: N) => {
    const entry = mutationOf(name)
    const run = store[name] as unknown as (input: ModelInputOf<N>) => Promise<OutputOf<N>>
    return tool(entry.description, entry.modelInput, entry.output, run)
  }
  const readTool = <N extends GoalReadName>(name: N) => {
    const run = store[name] as unknown as () => Promise<OutputOf<N>>
    return tool(GOAL_OPERATIONS[name].description, NoInput, GOAL_OPERATIONS[name].output as Schema.Codec<OutputOf<N>, unknown>, () => run())
  }
  // Keyed by the table's own names, so the record has exactly the tools `GoalTools` declares.
  return Object.fromEntries(GOAL_OPERATION_NAMES.map((name) => [name, isMutationName(name) ? mutationTool(name) : readTool(name)])) as unknown as GoalTools
}
