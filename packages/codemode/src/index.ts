export { execute, executeEffect, type ExecuteOptions, type InternalToolError } from "./Execute.js"
export type { ExecuteError, ExecuteResult, ToolCallRecord } from "./ExecuteResult.js"
export {
  assertValidGlobals,
  BUILTIN_GLOBAL_NAMES,
  InvalidGlobalsError,
  type InvalidGlobalsRule,
  seedBuiltinGlobals
} from "./Globals.js"
export { instructions, type InstructionsOptions } from "./Instructions.js"
export { isTool, type Tool, type ToolTree } from "./Tool.js"
