export { CLAUDE_CODE_EDIT_TOOLS, claudeCodeHook, type HookAnswer, type HookOptions, projectRelativePath } from "./hooks/ClaudeCodeHook.js"
export { armForHook, type HookArmed, hookCacheDirectory, type HookSkill, hookSkills } from "./hooks/HookCatalog.js"
export { type HookContextInput, MAX_HOOK_CONTEXT_CHARS, renderHookContext } from "./hooks/HookContext.js"
export { hookGoalSnapshot } from "./hooks/HookSnapshot.js"
