import { isAbsolute } from "node:path"
import { isRecord } from "./FileStamps.js"
import { type HookEvent, hookEventContext, type HookProjectOptions } from "./HookEvents.js"

/** The tools whose `PostToolUse` names an edited file, and the input field that names it. */
export const CLAUDE_CODE_EDIT_TOOLS = { Edit: "file_path", Write: "file_path", MultiEdit: "file_path", NotebookEdit: "notebook_path" } as const

export interface HookOptions extends HookProjectOptions {
  /** The project directory (default: `CLAUDE_PROJECT_DIR` when set and not empty, else the payload's `cwd`). */
  readonly projectDir?: string | undefined
  /** The environment `CLAUDE_PROJECT_DIR` is read from (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined
}

/** What the hook process does: the JSON to print on stdout (nothing when there is nothing to add) and a reason for stderr. */
export interface HookAnswer {
  readonly stdout?: string | undefined
  readonly stderr?: string | undefined
}

const answer = (hookEventName: string, additionalContext: string): HookAnswer =>
  additionalContext === "" ? {} : { stdout: JSON.stringify({ hookSpecificOutput: { hookEventName, additionalContext } }) }

const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined)
const nonEmpty = (value: string | undefined): string | undefined => (value === undefined || value === "" ? undefined : value)

/** The event a Claude Code payload reports, or the reason it reports none Armory answers. */
const eventOf = (payload: Record<string, unknown>): HookEvent | { readonly error: string } | undefined => {
  switch (text(payload["hook_event_name"])) {
    case "UserPromptSubmit": {
      const prompt = text(payload["prompt"])
      return prompt === undefined ? { error: "UserPromptSubmit input without a prompt string" } : { kind: "prompt", prompt }
    }
    case "PostToolUse": {
      const tool = text(payload["tool_name"])
      const field = tool !== undefined && Object.hasOwn(CLAUDE_CODE_EDIT_TOOLS, tool) ? CLAUDE_CODE_EDIT_TOOLS[tool as keyof typeof CLAUDE_CODE_EDIT_TOOLS] : undefined
      const toolInput = payload["tool_input"]
      const file = field === undefined || !isRecord(toolInput) ? undefined : text(toolInput[field])
      return file === undefined ? undefined : { kind: "edit", files: [file] }
    }
    case "SessionStart":
      return { kind: "session-start" }
    default:
      return undefined
  }
}

/**
 * Answers one Claude Code hook call (the JSON it writes to the hook's stdin) in Claude Code's hook
 * output format: `UserPromptSubmit` adds the skills the prompt arms and the goal snapshot when the
 * session has not seen it, `PostToolUse` of an edit adds the skills the edited file's path arms,
 * `SessionStart` adds the snapshot. Never throws: a bad payload or a failure is a reason for stderr
 * and no output, so the user's turn is never blocked. The payload is checked by hand rather than
 * with a Schema: the hook runs before every prompt, and loading a schema library would cost more
 * than the whole answer.
 */
export const claudeCodeHook = async (input: string, options: HookOptions = {}): Promise<HookAnswer> => {
  let payload: unknown
  try {
    payload = JSON.parse(input)
  } catch (error) {
    return { stderr: `armory hook claude-code: the hook input is not JSON (${error instanceof Error ? error.message : String(error)})` }
  }
  if (!isRecord(payload)) return { stderr: "armory hook claude-code: the hook input is not a JSON object" }
  const projectDir = options.projectDir ?? nonEmpty((options.env ?? process.env)["CLAUDE_PROJECT_DIR"]) ?? text(payload["cwd"])
  if (projectDir === undefined || !isAbsolute(projectDir)) {
    return { stderr: "armory hook claude-code: no project directory (CLAUDE_PROJECT_DIR or an absolute cwd in the input)" }
  }
  const event = eventOf(payload)
  if (event === undefined) return {}
  if ("error" in event) return { stderr: `armory hook claude-code: ${event.error}` }
  try {
    const context = await hookEventContext(event, {
      projectDir,
      hostSession: nonEmpty(text(payload["session_id"])),
      skillSources: options.skillSources,
      goalsRoot: options.goalsRoot,
      sessionId: options.sessionId
    })
    return answer(String(payload["hook_event_name"]), context)
  } catch (error) {
    return { stderr: `armory hook claude-code: ${error instanceof Error ? error.message : String(error)}` }
  }
}
