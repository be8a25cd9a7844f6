import { randomUUID } from "node:crypto"
import { join } from "node:path"
import type { SkillSource } from "@armory/skill-loader"
import { defaultSkillSources } from "../SkillSources.js"
import { isRecord } from "./FileStamps.js"
import { armForHook, hookCacheDirectory, hookSkills } from "./HookCatalog.js"
import { renderHookContext } from "./HookContext.js"
import { hookGoalSnapshot } from "./HookSnapshot.js"
import { projectRelativePath } from "./ProjectPaths.js"

/** OpenCode's tools that write a file, and the argument that names it. */
export const OPENCODE_EDIT_TOOLS = { edit: "filePath", write: "filePath", multiedit: "filePath" } as const

/** The part of OpenCode's plugin input Armory reads: the project's directory. */
export interface OpenCodePluginInput {
  readonly directory: string
  readonly worktree?: string | undefined
}

/** A text part added to the user's message, in OpenCode's `TextPart` shape; `synthetic`: the user did not type it. */
export interface OpenCodeTextPart {
  id: string
  sessionID: string
  messageID: string
  type: "text"
  text: string
  synthetic?: boolean
}

/** The hooks Armory implements, typed as OpenCode's `Hooks` declares them (only the fields read or written). */
export interface OpenCodeHooks {
  "chat.message": (
    input: { readonly sessionID: string; readonly messageID?: string | undefined },
    output: { readonly message: { readonly id: string; readonly sessionID: string }; parts: Array<unknown> }
  ) => Promise<void>
  "tool.execute.after": (
    input: { readonly tool: string; readonly sessionID: string; readonly callID: string; readonly args: unknown },
    output: { title: string; output: string; metadata: unknown }
  ) => Promise<void>
}

export interface OpenCodePluginOptions {
  /** The skill roots (default: the project's and the user's `.armory/skills`). */
  readonly skillSources?: ReadonlyArray<SkillSource> | undefined
  /** The goals directory of the file store (default `.armory/goals` under the project). */
  readonly goalsRoot?: string | undefined
  /** The goal session whose snapshot is injected (default: the store's default session). */
  readonly sessionId?: string | undefined
}

/** The text of a user's message: its text parts, the ones the user typed. */
const typedText = (parts: ReadonlyArray<unknown>): string =>
  parts
    .filter((part) => isRecord(part) && part["type"] === "text" && part["synthetic"] !== true && typeof part["text"] === "string")
    .map((part) => (part as { text: string }).text)
    .join("\n")

/**
 * Armory as an OpenCode plugin: `chat.message` adds to the user's message a synthetic text part with
 * the skills the message arms and the goal snapshot; `tool.execute.after` of an edit or a write adds
 * to the tool's output the skills the file's project-relative path arms. The same catalog, cache and
 * rendering as `armory hook claude-code`. A failure adds nothing and is never thrown into OpenCode.
 */
export const makeOpenCodePlugin =
  (options: OpenCodePluginOptions = {}) =>
  async (input: OpenCodePluginInput): Promise<OpenCodeHooks> => {
    const projectDir = input.worktree ?? input.directory
    const cache = hookCacheDirectory(projectDir)
    const skills = () => hookSkills(options.skillSources ?? defaultSkillSources({ cwd: projectDir }), cache)
    const snapshot = () =>
      hookGoalSnapshot({
        root: options.goalsRoot ?? join(projectDir, ".armory", "goals"),
        sessionId: options.sessionId,
        cacheDirectory: cache
      })
    return {
      "chat.message": async (_input, output) => {
        try {
          const prompt = typedText(output.parts)
          const [catalog, goal] = await Promise.all([skills(), snapshot()])
          const text = renderHookContext({ armed: armForHook(catalog, { prompt }), trigger: "this message", snapshot: goal })
          if (text === "") return
          const part: OpenCodeTextPart = { id: `prt_armory_${randomUUID()}`, sessionID: output.message.sessionID, messageID: output.message.id, type: "text", text, synthetic: true }
          output.parts.push(part)
        } catch {
          // A plugin that throws fails the user's message; Armory's context is never worth that.
        }
      },
      "tool.execute.after": async (call, output) => {
        try {
          const field = Object.hasOwn(OPENCODE_EDIT_TOOLS, call.tool) ? OPENCODE_EDIT_TOOLS[call.tool as keyof typeof OPENCODE_EDIT_TOOLS] : undefined
          const file = field === undefined || !isRecord(call.args) ? undefined : call.args[field]
          const path = typeof file === "string" ? projectRelativePath(projectDir, file) : undefined
          if (path === undefined) return
          const text = renderHookContext({ armed: armForHook(await skills(), { prompt: "", paths: [path] }), trigger: `the edit of ${JSON.stringify(path)}`, snapshot: "" })
          if (text !== "") output.output = `${output.output}\n\n${text}`
        } catch {
          // As above: the tool's own output stands.
        }
      }
    }
  }

/** The plugin with the default roots and goals, as OpenCode loads it from `.opencode/plugin/`. */
export const ArmoryPlugin = makeOpenCodePlugin()
