export {
  createSandboxPool,
  execute,
  executeEffect,
  type ExecuteOptions,
  type InternalToolError,
  InvalidLimitError,
  Sandboxes,
  type SandboxPoolClient,
  type SandboxPoolOptions
} from "./Execute.js"
export type { ExecuteError, ExecuteResult, ToolCallRecord } from "./ExecuteResult.js"
export { describeForeign } from "./ForeignValue.js"
export {
  assertValidGlobals,
  BUILTIN_GLOBAL_NAMES,
  InvalidGlobalsError,
  type InvalidGlobalsRule,
  seedBuiltinGlobals
} from "./Globals.js"
export { instructions, type InstructionsOptions } from "./Instructions.js"
export { isTool, type Tool, type ToolContext, type ToolTree } from "./Tool.js"
export {
  decodeToolInput,
  encodeToolOutput,
  MAX_ERROR_FIELDS_BYTES,
  MAX_JSON_DEPTH,
  type PublicToolError,
  publicToolError,
  runTool
} from "./ToolCall.js"
