import { Effect, Result, Schema } from "effect"
import { type GoalStoreError, InvalidInput } from "./Errors.js"
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
import { type GoalStoreShape, runMutation, runRead } from "./GoalStoreBackend.js"
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

/** A goal tool whose `run` is an Effect, failing with the store's tagged errors: what code mode runs in its caller's fiber. */
export interface GoalEffectTool<I, O> {
  readonly description: string
  readonly input: Schema.Codec<I, unknown>
  readonly output: Schema.Codec<O, unknown>
  readonly run: (input: I) => Effect.Effect<O, GoalStoreError>
}

/** The goal tools, one per entry of `GOAL_OPERATIONS`: a mutation takes its model input, a read none. */
export type GoalTools = {
  readonly [N in GoalOperationName]: N extends GoalMutationName
    ? GoalTool<ModelInputOf<N>, OutputOf<N>>
    : GoalTool<Record<string, never>, OutputOf<N>>
}

/** {@link GoalTools} as Effects. */
export type GoalEffectTools = {
  readonly [N in GoalOperationName]: N extends GoalMutationName
    ? GoalEffectTool<ModelInputOf<N>, OutputOf<N>>
    : GoalEffectTool<Record<string, never>, OutputOf<N>>
}

/**
 * Runs an operation on one session's store: the store itself (`(operation) => operation(store)`), or
 * a host's sessions, which open the store on its first use.
 */
export type GoalStoreRunner = <A>(operation: (store: GoalStoreShape) => Effect.Effect<A, GoalStoreError>) => Effect.Effect<A, GoalStoreError>

const NoInput = Schema.Struct({})

/** What one tool is made of, whichever way it runs: its description, Schemas, and a decoder of its input. */
interface ToolSpec<I, O> {
  readonly description: string
  readonly input: Schema.Codec<I, unknown>
  readonly output: Schema.Codec<O, unknown>
  /**
   * The input only as its Schema reads it, whoever calls the tool: what the Schema does not name (a
   * `force` slipped in by a caller that skipped the types) never reaches the store.
   */
  readonly decode: (given: unknown) => Result.Result<I, InvalidInput>
}

const toolSpec = <I, O>(description: string, input: Schema.Codec<I, unknown>, output: Schema.Codec<O, unknown>): ToolSpec<I, O> => {
  const decode = Schema.decodeUnknownResult(input)
  return {
    description,
    input,
    output,
    decode: (given) => Result.mapError(decode(given), (issue) => new InvalidInput({ reason: issue.message.replace(/\s+/g, " ") }))
  }
}

const mutationSpec = <N extends GoalMutationName>(name: N) => {
  const entry = mutationOf(name)
  return toolSpec(entry.description, entry.modelInput, entry.output)
}

const readSpec = <N extends GoalReadName>(name: N) =>
  toolSpec(GOAL_OPERATIONS[name].description, NoInput, GOAL_OPERATIONS[name].output as Schema.Codec<OutputOf<N>, unknown>)

/** Builds one tool per operation name. A record built key by key is not one TypeScript can type by its keys, so it is asserted here, once. */
const toolRecord = <R>(make: (name: GoalOperationName) => unknown): R =>
  Object.fromEntries(GOAL_OPERATION_NAMES.map((name) => [name, make(name)])) as unknown as R

const promisedTool = <I, O>(spec: ToolSpec<I, O>, run: (input: I) => Promise<O>): GoalTool<I, O> => ({
  description: spec.description,
  input: spec.input,
  output: spec.output,
  run: async (given) => run(Result.getOrThrow(spec.decode(given)))
})

/**
 * The goal operations as a tool namespace for code mode (the litgoal `goal_*` tools), bound to one
 * open store: `await tools.goals.complete({})` and so on. A model is never offered `force`: the
 * inputs are the store's without it, so nothing here can change a complete goal.
 */
export const goalTools = (store: GoalStoreClient): GoalTools => {
  const mutationTool = <N extends GoalMutationName>(name: N) =>
    promisedTool(mutationSpec(name), store[name] as unknown as (input: ModelInputOf<N>) => Promise<OutputOf<N>>)
  const readTool = <N extends GoalReadName>(name: N) => promisedTool(readSpec(name), store[name] as unknown as () => Promise<OutputOf<N>>)
  return toolRecord<GoalTools>((name) => (isMutationName(name) ? mutationTool(name) : readTool(name)))
}

/**
 * The same namespace as Effects over a {@link GoalStoreRunner}: code mode runs each call in the
 * fiber of the execution that made it, so the caller's logger, tracer and interruption reach the
 * store, and no call crosses into a Promise and back.
 */
export const goalEffectTools = (run: GoalStoreRunner): GoalEffectTools => {
  const effectTool = <I, O>(spec: ToolSpec<I, O>, operation: (input: I) => (store: GoalStoreShape) => Effect.Effect<O, GoalStoreError>): GoalEffectTool<I, O> => ({
    description: spec.description,
    input: spec.input,
    output: spec.output,
    run: (given) => Effect.flatMap(Effect.fromResult(spec.decode(given)), (input) => run(operation(input)))
  })
  const mutationTool = <N extends GoalMutationName>(name: N) =>
    effectTool(mutationSpec(name), (input: ModelInputOf<N>) => (store) => runMutation(store, name, input))
  const readTool = <N extends GoalReadName>(name: N) => effectTool(readSpec(name), () => (store) => runRead(store, name))
  return toolRecord<GoalEffectTools>((name) => (isMutationName(name) ? mutationTool(name) : readTool(name)))
}
