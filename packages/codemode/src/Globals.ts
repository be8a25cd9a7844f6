import { Data } from "effect"
import { REALM_GLOBAL_NAMES } from "./generated/builtinGlobals.js"
import { compileQuickJs } from "./internal/QuickJs.js"
import { realmGlobalNames } from "./internal/Sandbox.js"
import { entryAt, isTool, type ToolTree } from "./Tool.js"

/** Why a name cannot be bound as a bare global. */
export type InvalidGlobalsRule = "not-an-identifier" | "duplicate" | "shadows-builtin" | "not-a-namespace" | "tool-not-namespace"

const RULE_TEXT: Record<InvalidGlobalsRule, string> = {
  "not-an-identifier": "is not a JavaScript identifier (letters, digits, _ and $, not starting with a digit, not a reserved word)",
  duplicate: "is listed more than once",
  "shadows-builtin": "would shadow a global of the guest realm",
  "not-a-namespace": "is not a namespace of the tool tree",
  "tool-not-namespace": "is a tool, not a namespace: only a namespace can be bound as a global"
}

/** A `globals` entry the tool tree cannot back; names the entry and the rule it breaks. */
export class InvalidGlobalsError extends Data.TaggedError("InvalidGlobalsError")<{
  readonly name: string
  readonly rule: InvalidGlobalsRule
}> {
  override get message(): string {
    return `invalid global ${JSON.stringify(this.name)}: it ${RULE_TEXT[this.rule]} (rule: ${this.rule})`
  }
}

const RESERVED_WORDS = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for " +
    "function if import in instanceof new null return super switch this throw true try typeof var void while with " +
    "yield let static implements interface package private protected public await arguments eval"
  ).split(" ")
)

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/

/** Whether `name` can be declared as a binding: an ASCII identifier that is not a reserved word. */
export const isBindingName = (name: string): boolean => IDENTIFIER.test(name) && !RESERVED_WORDS.has(name)

/**
 * Builds a fresh guest realm exactly as an execution seeds it (QuickJS's intrinsics as the prelude
 * leaves them, plus `console` and `tools`, no host globals) and lists the names on its `globalThis`.
 * It loads the WebAssembly module, so it is asynchronous.
 */
export const seedBuiltinGlobals = async (): Promise<ReadonlyArray<string>> => realmGlobalNames(await compileQuickJs())

/**
 * The names a guest realm has before any host global is bound: no global may take one of them.
 * It is `seedBuiltinGlobals()` as the package was built (generated from the realm, and checked
 * against it), so importing the package loads no WebAssembly.
 */
export const BUILTIN_GLOBAL_NAMES: ReadonlySet<string> = new Set(REALM_GLOBAL_NAMES)

/**
 * Checks that each name can alias a namespace of the tree as a bare global, in order; throws
 * `InvalidGlobalsError` for the first that cannot.
 */
export const assertValidGlobals = (tools: ToolTree, globals: ReadonlyArray<string>): void => {
  const seen = new Set<string>()
  for (const name of globals) {
    const refuse = (rule: InvalidGlobalsRule) => {
      throw new InvalidGlobalsError({ name, rule })
    }
    if (!isBindingName(name)) refuse("not-an-identifier")
    if (seen.has(name)) refuse("duplicate")
    seen.add(name)
    if (BUILTIN_GLOBAL_NAMES.has(name)) refuse("shadows-builtin")
    const entry = entryAt(tools, name)
    if (entry === undefined) refuse("not-a-namespace")
    if (isTool(entry)) refuse("tool-not-namespace")
  }
}

/** The sentence, shared by the catalog preview and the ReferenceError hint, naming every host global. */
export const globalsStatement = (globals: ReadonlyArray<string>): string =>
  `The only globals are ${["tools", ...globals].map((name) => `\`${name}\``).join(", ")} and the standard JavaScript builtins ` +
  "(Object, Array, JSON, Math, Promise, console, …); there is no fetch, require, process, setTimeout or file system."
