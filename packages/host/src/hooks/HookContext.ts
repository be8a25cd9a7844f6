import { contextBlock, contextLine } from "./ContextText.js"
import type { HookArmed } from "./HookCatalog.js"

/** The most a hook adds to the model's context: Claude Code cuts additional context beyond 10,000 characters. */
export const MAX_HOOK_CONTEXT_CHARS = 10_000

/** The longest pattern quoted in the reason a skill armed; a skill's author writes them. */
const MAX_PATTERN_CHARS = 80

const quoted = (pattern: string): string =>
  contextLine(JSON.stringify(pattern.length <= MAX_PATTERN_CHARS ? pattern : `${pattern.slice(0, MAX_PATTERN_CHARS)}…`))

/** Why a skill armed, from the patterns that matched: quoted, so a pattern's text never reads as an instruction of ours. */
const why = (armed: HookArmed): string =>
  [
    armed.keywords.length > 0 ? `keyword ${armed.keywords.map(quoted).join(", ")}` : "",
    armed.urls.length > 0 ? `URL ${armed.urls.map(quoted).join(", ")}` : "",
    armed.paths.length > 0 ? `path ${armed.paths.map(quoted).join(", ")}` : ""
  ]
    .filter((part) => part !== "")
    .join("; ")

export interface HookContextInput {
  readonly armed: ReadonlyArray<HookArmed>
  /** What armed them, for the heading ("this prompt", "the edit of src/a.ts"). */
  readonly trigger: string
  /** The goal snapshot; empty when no goal is open or it is not added this time. */
  readonly snapshot: string
  /** Why the goal snapshot could not be read, when it could not: said in one line, the skills are still added. */
  readonly snapshotUnavailable?: string | undefined
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
  const goal =
    input.snapshotUnavailable !== undefined
      ? `Armory goal snapshot unavailable (${contextLine(input.snapshotUnavailable)}): run \`armory goal repair\` to rebuild the goal files from the ledger, or \`armory goal status\` for the details.`
      : input.snapshot.trim() === ""
        ? ""
        : `Armory goal (armory://goals/snapshot):\n${contextBlock(input.snapshot.trim())}`
  const goalPart = goal.length <= maxChars ? goal : `${goal.slice(0, maxChars - 1)}…`
  if (input.armed.length === 0) return goalPart
  const heading = `Armory skills armed by ${contextLine(input.trigger)} (read each SKILL.md before acting on it):`
  const budget = maxChars - goalPart.length - (goalPart === "" ? 0 : 2)
  const lines: Array<string> = []
  let used = heading.length
  for (const [index, armed] of input.armed.entries()) {
    const line = `- ${contextLine(armed.name)} (${why(armed)}): ${contextLine(armed.location)}`
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
