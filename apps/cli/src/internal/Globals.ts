import { assertValidGlobals, type ToolTree } from "@armory/codemode"
import { HOST_GLOBALS } from "@armory/host"
import { Effect } from "effect"
import { invalidUsage, type UsageError } from "./CommandFailed.js"

/**
 * `--globals a,b` (repeatable): the globals to bind, all of the host's by default, checked against
 * the tool tree as code mode would check them; a name it refuses is a usage error.
 */
export const selectedGlobals = (tools: ToolTree, values: ReadonlyArray<string>): Effect.Effect<ReadonlyArray<string>, UsageError> => {
  const names = values.flatMap((value) => value.split(",")).map((name) => name.trim()).filter((name) => name !== "")
  const globals = names.length === 0 ? HOST_GLOBALS : names
  return Effect.try({
    try: () => {
      assertValidGlobals(tools, globals)
      return globals
    },
    catch: (error) => invalidUsage(`--globals: ${error instanceof Error ? error.message : String(error)}`)
  })
}
