import { answerCommandHook, type CommandHookHost, type HookAnswer, text } from "./CommandHook.js"
import type { HookProjectOptions } from "./HookEvents.js"
import { MAX_HOOK_EDIT_FILES } from "./HookEvents.js"
import { patchEdits } from "./PatchText.js"

/** Codex's tools that edit files, and the input field holding the patch: `apply_patch` takes one patch of any number of files. */
export const CODEX_EDIT_TOOLS = { apply_patch: "command" } as const

export interface CodexHookOptions extends HookProjectOptions {
  /** The project directory (default: the payload's `cwd`, where Codex's session runs). */
  readonly projectDir?: string | undefined
}

const codex: CommandHookHost = {
  name: "codex",
  precedence: "project",
  sessionDirectory: (payload) => text(payload["cwd"]),
  directorySources: "an absolute cwd in the input",
  fileEdits: (tool, input) => {
    const field = Object.hasOwn(CODEX_EDIT_TOOLS, tool) ? CODEX_EDIT_TOOLS[tool as keyof typeof CODEX_EDIT_TOOLS] : undefined
    const patch = field === undefined ? undefined : text(input[field])
    return patch === undefined ? [] : patchEdits(patch, MAX_HOOK_EDIT_FILES)
  }
}

/**
 * Answers one Codex hook call: Codex writes the same JSON payloads as Claude Code (`SessionStart`,
 * `UserPromptSubmit`, `PostToolUse` with `tool_name` and `tool_input`) and reads the same
 * `hookSpecificOutput.additionalContext`. An `apply_patch` call arms what the files its patch names
 * arm, and what its hunks changed arms skills with an edit condition. Never throws.
 */
export const codexHook = (input: string, options: CodexHookOptions = {}): Promise<HookAnswer> => answerCommandHook(codex, input, options)
