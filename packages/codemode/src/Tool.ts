import type { Effect, Schema } from "effect"

/** What a tool is told while it runs. */
export interface ToolContext {
  /**
   * Aborts when the execution is over — its time limit passed, it was cancelled or the code failed —
   * while the tool still runs; an Effect-returning tool is interrupted then instead. Its answer no longer reaches
   * the guest, and whatever it already did stays done: a tool with side effects should stop at it.
   */
  readonly signal: AbortSignal
}

/**
 * One operation the guest can call as `await tools.<namespace>.<name>(input)`.
 * `input` decodes the single value the guest passes (from its JSON form); when it is an object with
 * no required field the guest may pass nothing (`{}`), and when a lone string can only mean one
 * field (the one required field, when that is a string, or, with none required, the only string
 * field) the guest may pass that string alone. `output`, when given, encodes what `run` returns back
 * into JSON for the guest.
 */
export interface Tool<I = unknown, O = unknown> {
  readonly description: string
  readonly input: Schema.Codec<I, unknown>
  readonly output?: Schema.Codec<O, unknown>
  run(input: I, context: ToolContext): Promise<O> | Effect.Effect<O, unknown>
}

/** Namespaces of tools, nested to any depth: `{ db: { users: { find: Tool } } }`. */
export type ToolTree = { readonly [name: string]: Tool | ToolTree }

/** Whether a tree entry is a tool (it has `run`) rather than a namespace. */
export const isTool = (entry: Tool | ToolTree | undefined): entry is Tool =>
  typeof entry === "object" && entry !== null && typeof entry["run"] === "function" && "input" in entry

/**
 * The entry at a dotted path, looking only at own properties so that guest-chosen names such as
 * `__proto__` or `constructor` never reach the host's prototype chain.
 */
export const entryAt = (tree: ToolTree, path: string): Tool | ToolTree | undefined => {
  let current: Tool | ToolTree = tree
  for (const segment of path.split(".")) {
    if (isTool(current) || !Object.hasOwn(current, segment)) return undefined
    const next: Tool | ToolTree | undefined = current[segment]
    if (typeof next !== "object" || next === null) return undefined
    current = next
  }
  return current
}

/** Every tool of the tree with its dotted path, in declaration order. */
export const toolEntries = (tree: ToolTree, prefix = ""): ReadonlyArray<readonly [string, Tool]> =>
  Object.entries(tree).flatMap(([name, entry]) => {
    const path = prefix === "" ? name : `${prefix}.${name}`
    return isTool(entry) ? [[path, entry] as const] : toolEntries(entry, path)
  })
