import { randomUUID } from "node:crypto"
import { hookEventContext, type HookProjectOptions } from "./HookEvents.js"
import { openCodeFileEdits, openCodePromptEvent } from "./OpenCodeHook.js"

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

/** The skill roots, goals and goal session the plugin reads (each defaults as `armory hook opencode`'s do). */
export type OpenCodePluginOptions = HookProjectOptions

/**
 * Armory as an OpenCode plugin, for a project that installs `@armory/host` into `.opencode/` itself:
 * `chat.message` adds to the user's message a synthetic text part with the skills the message arms
 * and the goal snapshot; `tool.execute.after` of an edit, a write or a patch adds to the tool's output
 * the skills the files' project-relative paths and changes arm. The project is the directory OpenCode's session
 * runs in (never the worktree, which is `/` outside a git repository). The same answers as
 * `armory hook opencode`, which the plugin `armory init opencode` writes asks instead. A failure
 * adds nothing and is never thrown into OpenCode.
 */
export const makeOpenCodePlugin =
  (options: OpenCodePluginOptions = {}) =>
  async (input: OpenCodePluginInput): Promise<OpenCodeHooks> => {
    const projectDir = input.directory
    return {
      "chat.message": async (_input, output) => {
        try {
          const text = await hookEventContext(openCodePromptEvent(output.parts), { ...options, projectDir, hostSession: output.message.sessionID })
          if (text === "") return
          const part: OpenCodeTextPart = { id: `prt_armory_${randomUUID()}`, sessionID: output.message.sessionID, messageID: output.message.id, type: "text", text, synthetic: true }
          output.parts.push(part)
        } catch {
          // A plugin that throws fails the user's message; Armory's context is never worth that.
        }
      },
      "tool.execute.after": async (call, output) => {
        try {
          const edits = openCodeFileEdits(call.tool, call.args)
          if (edits.length === 0) return
          const text = await hookEventContext({ kind: "edit", edits }, { ...options, projectDir })
          if (text !== "") output.output = `${output.output}\n\n${text}`
        } catch {
          // As above: the tool's own output stands.
        }
      }
    }
  }

/** The plugin with the default roots and goals, as OpenCode loads it from `.opencode/plugins/`. */
export const ArmoryPlugin = makeOpenCodePlugin()
