import { isAbsolute } from "node:path"
import type { SkillPrecedence } from "../SkillSources.js"
import type { EditedFile } from "./EditedFile.js"
import { isRecord } from "./FileStamps.js"
import { type HookEvent, hookEventContext, type HookProjectOptions } from "./HookEvents.js"

/** What the hook process does: the JSON to print on stdout (nothing when there is nothing to add) and a reason for stderr. */
export interface HookAnswer {
  readonly stdout?: string | undefined
  readonly stderr?: string | undefined
}

/**
 * A host whose hooks are commands that read one JSON payload on stdin and may print
 * `{ hookSpecificOutput: { hookEventName, additionalContext } }`: the protocol Claude Code defined
 * and Codex follows. Hosts differ in where the project is and in which tool calls edit files.
 */
export interface CommandHookHost {
  /** The host as `armory hook` names it, for the reasons on stderr. */
  readonly name: string
  /** The directory the session runs in, when the payload or the environment says. */
  readonly sessionDirectory: (payload: Record<string, unknown>) => string | undefined
  /** Where the host may name the session's directory, for the reason given when it does not. */
  readonly directorySources: string
  /** Whose skill wins a name clash in the default roots, as the host documents it. */
  readonly precedence: SkillPrecedence
  /** What a `PostToolUse` call edited, from its tool's name, input and response; nothing for a tool that edits nothing. */
  readonly fileEdits: (tool: string, input: Record<string, unknown>, response: unknown) => ReadonlyArray<EditedFile>
}

export const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined)
export const nonEmpty = (value: string | undefined): string | undefined => (value === undefined || value === "" ? undefined : value)

/** The event a payload reports, or the reason it reports none Armory answers. */
const eventOf = (host: CommandHookHost, payload: Record<string, unknown>): HookEvent | { readonly error: string } | undefined => {
  switch (text(payload["hook_event_name"])) {
    case "UserPromptSubmit": {
      const prompt = text(payload["prompt"])
      return prompt === undefined ? { error: "UserPromptSubmit input without a prompt string" } : { kind: "prompt", prompt }
    }
    case "PostToolUse": {
      const tool = text(payload["tool_name"])
      const input = payload["tool_input"]
      const edits = tool === undefined || !isRecord(input) ? [] : host.fileEdits(tool, input, payload["tool_response"])
      return edits.length === 0 ? undefined : { kind: "edit", edits }
    }
    case "SessionStart":
      return { kind: "session-start" }
    default:
      return undefined
  }
}

/**
 * Answers one hook call of a command-hook host: `UserPromptSubmit` adds the skills the prompt arms
 * and the goal snapshot when the session has not seen it, `PostToolUse` of an edit adds the skills
 * the edited files' paths and changes arm, `SessionStart` adds the snapshot. Never throws: a bad payload or a
 * failure is a reason for stderr and no output, so the user's turn is never blocked. The payload is
 * checked by hand rather than with a Schema: the hook runs before every prompt, and loading a schema
 * library would cost more than the whole answer.
 */
export const answerCommandHook = async (host: CommandHookHost, input: string, options: HookProjectOptions & { readonly projectDir?: string | undefined }): Promise<HookAnswer> => {
  let payload: unknown
  try {
    payload = JSON.parse(input)
  } catch (error) {
    return { stderr: `armory hook ${host.name}: the hook input is not JSON (${error instanceof Error ? error.message : String(error)})` }
  }
  if (!isRecord(payload)) return { stderr: `armory hook ${host.name}: the hook input is not a JSON object` }
  const projectDir = options.projectDir ?? host.sessionDirectory(payload)
  if (projectDir === undefined || !isAbsolute(projectDir)) return { stderr: `armory hook ${host.name}: no project directory (${host.directorySources})` }
  const event = eventOf(host, payload)
  if (event === undefined) return {}
  if ("error" in event) return { stderr: `armory hook ${host.name}: ${event.error}` }
  try {
    const additionalContext = await hookEventContext(event, {
      projectDir,
      hostSession: nonEmpty(text(payload["session_id"])),
      precedence: host.precedence,
      skillSources: options.skillSources,
      goalsRoot: options.goalsRoot,
      sessionId: options.sessionId
    })
    return additionalContext === "" ? {} : { stdout: JSON.stringify({ hookSpecificOutput: { hookEventName: String(payload["hook_event_name"]), additionalContext } }) }
  } catch (error) {
    return { stderr: `armory hook ${host.name}: ${error instanceof Error ? error.message : String(error)}` }
  }
}
