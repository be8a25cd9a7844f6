import { answerCommandHook, type CommandHookHost, type HookAnswer, nonEmpty, text } from "./CommandHook.js"
import type { HookProjectOptions } from "./HookEvents.js"

/** The tools whose `PostToolUse` names an edited file, and the input field that names it. */
export const CLAUDE_CODE_EDIT_TOOLS = { Edit: "file_path", Write: "file_path", MultiEdit: "file_path", NotebookEdit: "notebook_path" } as const

export interface HookOptions extends HookProjectOptions {
  /** The project directory (default: `CLAUDE_PROJECT_DIR` when set and not empty, else the payload's `cwd`). */
  readonly projectDir?: string | undefined
  /** The environment `CLAUDE_PROJECT_DIR` is read from (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined
}

const claudeCode = (env: Readonly<Record<string, string | undefined>>): CommandHookHost => ({
  name: "claude-code",
  sessionDirectory: (payload) => nonEmpty(env["CLAUDE_PROJECT_DIR"]) ?? text(payload["cwd"]),
  directorySources: "CLAUDE_PROJECT_DIR or an absolute cwd in the input",
  editedFiles: (tool, input) => {
    const field = Object.hasOwn(CLAUDE_CODE_EDIT_TOOLS, tool) ? CLAUDE_CODE_EDIT_TOOLS[tool as keyof typeof CLAUDE_CODE_EDIT_TOOLS] : undefined
    const file = field === undefined ? undefined : text(input[field])
    return file === undefined ? [] : [file]
  }
})

/**
 * Answers one Claude Code hook call (the JSON it writes to the hook's stdin) in Claude Code's hook
 * output format: `UserPromptSubmit` adds the skills the prompt arms and the goal snapshot when the
 * session has not seen it, `PostToolUse` of an edit adds the skills the edited file's path arms,
 * `SessionStart` adds the snapshot. Never throws.
 */
export const claudeCodeHook = (input: string, options: HookOptions = {}): Promise<HookAnswer> => answerCommandHook(claudeCode(options.env ?? process.env), input, options)
