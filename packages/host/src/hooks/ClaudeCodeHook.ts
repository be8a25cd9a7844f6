import { isAbsolute, join } from "node:path"
import type { SkillSource } from "@armory/skill-loader"
import { defaultSkillSources } from "../SkillSources.js"
import { isRecord } from "./FileStamps.js"
import { armForHook, hookCacheDirectory, hookSkills } from "./HookCatalog.js"
import { renderHookContext } from "./HookContext.js"
import { hookGoalSnapshot } from "./HookSnapshot.js"
import { projectRelativePath } from "./ProjectPaths.js"

/** The tools whose `PostToolUse` names an edited file, and the input field that names it. */
export const CLAUDE_CODE_EDIT_TOOLS = { Edit: "file_path", Write: "file_path", MultiEdit: "file_path", NotebookEdit: "notebook_path" } as const

export interface HookOptions {
  /** The skill roots (default: the project's and the user's `.armory/skills`). */
  readonly skillSources?: ReadonlyArray<SkillSource> | undefined
  /** The goals directory of the file store (default `.armory/goals` under the project). */
  readonly goalsRoot?: string | undefined
  /** The goal session whose snapshot is injected (default: the store's default session). */
  readonly sessionId?: string | undefined
  /** The project directory (default: `CLAUDE_PROJECT_DIR`, else the payload's `cwd`). */
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

/**
 * Answers one Claude Code hook call (the JSON it writes to the hook's stdin) in Claude Code's hook
 * output format: `UserPromptSubmit` adds the skills the prompt arms and the goal snapshot,
 * `PostToolUse` of an edit adds the skills the edited file's path arms, `SessionStart` adds the
 * snapshot. Never throws: a bad payload or a failure is a reason for stderr and no output, so the
 * user's turn is never blocked. The payload is checked by hand rather than with a Schema: the hook
 * runs before every prompt, and loading a schema library would cost more than the whole answer.
 */
export const claudeCodeHook = async (input: string, options: HookOptions = {}): Promise<HookAnswer> => {
  let payload: unknown
  try {
    payload = JSON.parse(input)
  } catch (error) {
    return { stderr: `armory hook claude-code: the hook input is not JSON (${error instanceof Error ? error.message : String(error)})` }
  }
  if (!isRecord(payload)) return { stderr: "armory hook claude-code: the hook input is not a JSON object" }
  const event = text(payload["hook_event_name"])
  const projectDir = options.projectDir ?? (options.env ?? process.env)["CLAUDE_PROJECT_DIR"] ?? text(payload["cwd"])
  if (projectDir === undefined || !isAbsolute(projectDir)) {
    return { stderr: "armory hook claude-code: no project directory (CLAUDE_PROJECT_DIR or an absolute cwd in the input)" }
  }
  try {
    const cache = hookCacheDirectory(projectDir)
    const snapshot = () =>
      hookGoalSnapshot({
        root: options.goalsRoot ?? join(projectDir, ".armory", "goals"),
        sessionId: options.sessionId,
        cacheDirectory: cache
      })
    const skills = () => hookSkills(options.skillSources ?? defaultSkillSources({ cwd: projectDir }), cache)
    switch (event) {
      case "UserPromptSubmit": {
        const prompt = text(payload["prompt"])
        if (prompt === undefined) return { stderr: "armory hook claude-code: UserPromptSubmit input without a prompt string" }
        const [catalog, goal] = await Promise.all([skills(), snapshot()])
        return answer(event, renderHookContext({ armed: armForHook(catalog, { prompt }), trigger: "this prompt", snapshot: goal }))
      }
      case "PostToolUse": {
        const tool = text(payload["tool_name"])
        const field = tool !== undefined && Object.hasOwn(CLAUDE_CODE_EDIT_TOOLS, tool) ? CLAUDE_CODE_EDIT_TOOLS[tool as keyof typeof CLAUDE_CODE_EDIT_TOOLS] : undefined
        const toolInput = payload["tool_input"]
        const file = field === undefined || !isRecord(toolInput) ? undefined : text(toolInput[field])
        const path = file === undefined ? undefined : projectRelativePath(projectDir, file)
        if (path === undefined) return {}
        const armed = armForHook(await skills(), { prompt: "", paths: [path] })
        return answer(event, renderHookContext({ armed, trigger: `the edit of ${JSON.stringify(path)}`, snapshot: "" }))
      }
      case "SessionStart":
        return answer(event, renderHookContext({ armed: [], trigger: "", snapshot: await snapshot() }))
      default:
        return {}
    }
  } catch (error) {
    return { stderr: `armory hook claude-code: ${error instanceof Error ? error.message : String(error)}` }
  }
}
