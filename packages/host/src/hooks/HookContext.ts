import type { HookArmed } from "./HookCatalog.js"

/** The most a hook adds to the model's context: Claude Code cuts additional context beyond 10,000 characters. */
export const MAX_HOOK_CONTEXT_CHARS = 10_000

/** The longest pattern quoted in the reason a skill armed; a skill's author writes them. */
const MAX_PATTERN_CHARS = 80

const quoted = (pattern: string): string =>
  JSON.stringify(pattern.length <= MAX_PATTERN_CHARS ? pattern : `${pattern.slice(0, MAX_PATTERN_CHARS)}…`)

/** Why a skill armed, from the patterns that matched: quoted, so a pattern's text never reads as an instruction of ours. */
const why = (armed: HookArmed): string =>
  [
    armed.keywords.length > 0 ? `keyword ${armed.keywords.map(quoted).join(", ")}` : "",
    armed.urls.length > 0 ? `URL ${armed.urls.map(quoted).join(", ")}` : "",
    armed.paths.length > 0 ? `path ${armed.paths.map(quoted).join(", ")}` : ""
  ]
    .filter((part) => part !== "")
    .join("; ")

/** Control characters out of a file path, so a strange file name cannot start a line of its own. */
const oneLine = (text: string): string => text.replace(/[\p{Cc}\p{Zl}\p{Zp}]/gu, "?")

export interface HookContextInput {
  readonly armed: ReadonlyArray<HookArmed>
  /** What armed them, for the heading ("this prompt", "the edit of src/a.ts"). */
  readonly trigger: string
  /** The goal snapshot; empty when no goal is open. */
  readonly snapshot: string
  readonly maxChars?: number | undefined
}

/**
 * The text a hook adds to the model's context: the skills that armed (name, why, the SKILL.md to
 * read) and the goal snapshot, within `maxChars`. Skills past the budget are counted, not dropped
 * silently; the snapshot keeps its room first, being the shorter and the one every turn needs.
 * Empty when there is nothing to add.
 */
export const renderHookContext = (input: HookContextInput): string => {
  const maxChars = input.maxChars ?? MAX_HOOK_CONTEXT_CHARS
  const goal = input.snapshot.trim() === "" ? "" : `Armory goal (armory://goals/snapshot):\n${input.snapshot.trim()}`
  const goalPart = goal.length <= maxChars ? goal : `${goal.slice(0, maxChars - 1)}…`
  if (input.armed.length === 0) return goalPart
  const heading = `Armory skills armed by ${input.trigger} (read each SKILL.md before acting on it):`
  const budget = maxChars - goalPart.length - (goalPart === "" ? 0 : 2)
  const lines: Array<string> = []
  let used = heading.length
  for (const [index, armed] of input.armed.entries()) {
    const line = `- ${armed.name} (${why(armed)}): ${oneLine(armed.location)}`
    const rest = input.armed.length - index - 1
    const more = rest > 0 ? `\n- … and ${rest} more armed skills not shown` : ""
    if (used + 1 + line.length + more.length > budget) {
      lines.push(`- … and ${input.armed.length - index} more armed skills not shown`)
      break
    }
    lines.push(line)
    used += 1 + line.length
  }
  const skills = [heading, ...lines].join("\n")
  const text = goalPart === "" ? skills : `${skills}\n\n${goalPart}`
  return text.length <= maxChars ? text : goalPart
}
