export { CLAUDE_CODE_EDIT_TOOLS, claudeCodeHook, type HookAnswer, type HookOptions } from "./hooks/ClaudeCodeHook.js"
export { armForHook, type HookArmed, hookCacheDirectory, type HookSkill, hookSkills } from "./hooks/HookCatalog.js"
export { type HookContextInput, MAX_HOOK_CONTEXT_CHARS, renderHookContext } from "./hooks/HookContext.js"
export { hookGoalSnapshot } from "./hooks/HookSnapshot.js"
export {
  makeOpenCodePlugin,
  OPENCODE_EDIT_TOOLS,
  type OpenCodeHooks,
  type OpenCodePluginInput,
  type OpenCodePluginOptions,
  type OpenCodeTextPart
} from "./hooks/OpenCodePlugin.js"
export { projectRelativePath } from "./hooks/ProjectPaths.js"
