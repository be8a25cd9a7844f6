import { answerCommandHook, type CommandHookHost, type HookAnswer, nonEmpty, text } from "./CommandHook.js"
import { type EditedFile, replacement, replacements } from "./EditedFile.js"
import { isRecord } from "./FileStamps.js"
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
  // Claude Code's documented order: enterprise, then personal, then project skills.
  precedence: "personal",
  sessionDirectory: (payload) => nonEmpty(env["CLAUDE_PROJECT_DIR"]) ?? text(payload["cwd"]),
  directorySources: "CLAUDE_PROJECT_DIR or an absolute cwd in the input",
  fileEdits: (tool, input, response) => {
    const field = Object.hasOwn(CLAUDE_CODE_EDIT_TOOLS, tool) ? CLAUDE_CODE_EDIT_TOOLS[tool as keyof typeof CLAUDE_CODE_EDIT_TOOLS] : undefined
    const file = field === undefined ? undefined : text(input[field])
    return file === undefined ? [] : claudeCodeEdits(tool, file, input, response)
  }
})

/**
 * What a Claude Code edit tool changed, from its input: `Edit`'s replacement, `MultiEdit`'s list,
 * `Write`'s content against the file's earlier content when the tool's response carries it
 * (`originalFile`), `NotebookEdit`'s cell source (a Markdown cell read as Markdown).
 */
const claudeCodeEdits = (tool: string, file: string, input: Record<string, unknown>, response: unknown): ReadonlyArray<EditedFile> => {
  switch (tool) {
    case "Edit":
      return [replacement(file, input["old_string"], input["new_string"])]
    case "MultiEdit": {
      const edits = replacements(file, input["edits"], "old_string", "new_string")
      return edits.length === 0 ? [{ file }] : edits
    }
    case "Write":
      return [replacement(file, isRecord(response) ? response["originalFile"] : undefined, input["content"])]
    default: {
      const source = text(input["new_source"])
      return source === undefined ? [{ file }] : [{ file, after: source, ...(input["cell_type"] === "markdown" ? { syntax: "md" } : {}) }]
    }
  }
}

/**
 * Answers one Claude Code hook call (the JSON it writes to the hook's stdin) in Claude Code's hook
 * output format: `UserPromptSubmit` adds the skills the prompt arms and the goal snapshot when the
 * session has not seen it, `PostToolUse` of an edit adds the skills the edited file's path arms,
 * `SessionStart` adds the snapshot. Never throws.
 */
export const claudeCodeHook = (input: string, options: HookOptions = {}): Promise<HookAnswer> => answerCommandHook(claudeCode(options.env ?? process.env), input, options)
