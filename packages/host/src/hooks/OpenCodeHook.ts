import { isAbsolute } from "node:path"
import type { HookAnswer } from "./CommandHook.js"
import { isRecord } from "./FileStamps.js"
import { type HookEvent, hookEventContext, type HookProjectOptions, MAX_HOOK_EDIT_FILES } from "./HookEvents.js"
import { type EditedFile, replacement, replacements } from "./EditedFile.js"
import { patchEdits } from "./PatchText.js"

/** OpenCode's tools that write a file, and the argument that names it. */
export const OPENCODE_EDIT_TOOLS = { edit: "filePath", write: "filePath", multiedit: "filePath" } as const

/** OpenCode's patch tools, whose argument is a patch naming the files it adds, updates, moves or deletes. */
export const OPENCODE_PATCH_TOOLS = { patch: "patchText", apply_patch: "patchText" } as const

/** The text of a user's message: its text parts, the ones the user typed. */
const typedText = (parts: unknown): string =>
  Array.isArray(parts)
    ? parts
        .flatMap((part) => (isRecord(part) && part["type"] === "text" && part["synthetic"] !== true && typeof part["text"] === "string" ? [part["text"]] : []))
        .join("\n")
    : ""

/**
 * What an OpenCode tool call edited, from its name and arguments: `edit`'s replacement, `multiedit`'s
 * list, `write`'s content, a patch's files and hunks; nothing for a tool that edits nothing.
 */
export const openCodeFileEdits = (tool: unknown, args: unknown): ReadonlyArray<EditedFile> => {
  if (typeof tool !== "string" || !isRecord(args)) return []
  if (Object.hasOwn(OPENCODE_EDIT_TOOLS, tool)) {
    const file = args[OPENCODE_EDIT_TOOLS[tool as keyof typeof OPENCODE_EDIT_TOOLS]]
    if (typeof file !== "string") return []
    if (tool === "write") return [replacement(file, undefined, args["content"])]
    if (tool === "edit") return [replacement(file, args["oldString"], args["newString"])]
    const edits = replacements(file, args["edits"], "oldString", "newString")
    return edits.length === 0 ? [{ file }] : edits
  }
  if (Object.hasOwn(OPENCODE_PATCH_TOOLS, tool)) {
    const patch = args[OPENCODE_PATCH_TOOLS[tool as keyof typeof OPENCODE_PATCH_TOOLS]]
    return typeof patch === "string" ? patchEdits(patch, MAX_HOOK_EDIT_FILES) : []
  }
  return []
}

/** A `chat.message` call as a hook event: the text the user typed. */
export const openCodePromptEvent = (parts: unknown): HookEvent => ({ kind: "prompt", prompt: typedText(parts) })

/**
 * Answers what the OpenCode plugin `armory init opencode` writes sends on stdin: OpenCode's own hook
 * arguments, `{ hook: "chat.message", directory, sessionID, parts }` or `{ hook: "tool.execute.after",
 * directory, sessionID, tool, args }`. The answer on stdout is `{ "text": "…" }`, the text to add;
 * nothing when there is nothing to add. `directory` is where OpenCode's session runs, the project
 * whose skills and goals are read. Never throws: a bad payload is a reason for stderr.
 */
export const openCodeHook = async (input: string, options: HookProjectOptions = {}): Promise<HookAnswer> => {
  let payload: unknown
  try {
    payload = JSON.parse(input)
  } catch (error) {
    return { stderr: `armory hook opencode: the hook input is not JSON (${error instanceof Error ? error.message : String(error)})` }
  }
  if (!isRecord(payload)) return { stderr: "armory hook opencode: the hook input is not a JSON object" }
  const directory = payload["directory"]
  if (typeof directory !== "string" || !isAbsolute(directory)) return { stderr: "armory hook opencode: the hook input has no absolute directory" }
  const event: HookEvent | undefined =
    payload["hook"] === "chat.message"
      ? openCodePromptEvent(payload["parts"])
      : payload["hook"] === "tool.execute.after"
        ? { kind: "edit", edits: openCodeFileEdits(payload["tool"], payload["args"]) }
        : undefined
  if (event === undefined) return { stderr: `armory hook opencode: unknown hook ${JSON.stringify(payload["hook"])}` }
  try {
    const sessionID = payload["sessionID"]
    const text = await hookEventContext(event, { ...options, projectDir: directory, hostSession: typeof sessionID === "string" && sessionID !== "" ? sessionID : undefined })
    return text === "" ? {} : { stdout: JSON.stringify({ text }) }
  } catch (error) {
    return { stderr: `armory hook opencode: ${error instanceof Error ? error.message : String(error)}` }
  }
}
