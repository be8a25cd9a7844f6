import { contextBlock, contextLine } from "./ContextText.js"
import type { HookArmed } from "./HookCatalog.js"

/** The most a hook adds to the model's context: Claude Code cuts additional context beyond 10,000 characters. */
export const MAX_HOOK_CONTEXT_CHARS = 10_000

/** The longest pattern quoted in the reason a skill armed; a skill's author writes them. */
const MAX_PATTERN_CHARS = 80

/** The most added lines quoted for one armed skill, and the longest one quoted whole. */
export const MAX_EVIDENCE_LINES = 20
const MAX_EVIDENCE_LINE_CHARS = 200

const quoted = (pattern: string): string =>
  contextLine(JSON.stringify(pattern.length <= MAX_PATTERN_CHARS ? pattern : `${pattern.slice(0, MAX_PATTERN_CHARS)}…`))

/** Why a skill armed, from the patterns that matched: quoted, so a pattern's text never reads as an instruction of ours. */
const why = (armed: HookArmed): string =>
  [
    armed.keywords.length > 0 ? `keyword ${armed.keywords.map(quoted).join(", ")}` : "",
    armed.urls.length > 0 ? `URL ${armed.urls.map(quoted).join(", ")}` : "",
    armed.paths.length > 0 ? `path ${armed.paths.map(quoted).join(", ")}` : "",
    armed.edits.length > 0 ? "an edit that met its edit condition" : ""
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
  /** The skills the session was already handed whole, by name, at the version it was given. */
  readonly given?: ReadonlyMap<string, string> | undefined
  readonly maxChars?: number | undefined
}

/** A hook's answer: the text to add, and the skills it hands over whole (name and version), for the session's record. */
export interface HookContext {
  readonly text: string
  readonly delivered: ReadonlyArray<readonly [name: string, version: string]>
}

/**
 * The added lines that met a skill's edit condition, quoted as data under the file they are in, at
 * most {@link MAX_EVIDENCE_LINES} of them; the rest are counted.
 */
const evidence = (armed: HookArmed): string => {
  const total = armed.edits.reduce((sum, edit) => sum + edit.lines.length, 0)
  if (total === 0) return ""
  const parts: Array<string> = []
  let shown = 0
  for (const edit of armed.edits) {
    if (shown >= MAX_EVIDENCE_LINES) break
    const lines = edit.lines.slice(0, MAX_EVIDENCE_LINES - shown)
    shown += lines.length
    parts.push(`  added lines that met it in ${quoted(edit.path)}:`, ...lines.map((line) => `    ${JSON.stringify(contextLine(line.length <= MAX_EVIDENCE_LINE_CHARS ? line : `${line.slice(0, MAX_EVIDENCE_LINE_CHARS)}…`))}`))
  }
  if (total > shown) parts.push(`  … and ${total - shown} more added lines`)
  return `\n${parts.join("\n")}`
}

/** A skill's body as the model reads it: invisible characters written out, and no line that could close the block early. */
const bodyBlock = (armed: HookArmed, body: string): string =>
  `<skill name=${JSON.stringify(contextLine(armed.name))} location=${JSON.stringify(contextLine(armed.location))}>\n${contextBlock(body).replace(/<\/skill/gi, "<\\/skill")}\n</skill>`

/**
 * The text a hook adds to the model's context: the skills that armed and the goal snapshot, within
 * `maxChars`. A skill new to the session (or changed since it was given) is handed over whole after
 * the list, while its body fits the rest of the budget; one the session was given at this version is
 * only said to be still armed; any other is named by its SKILL.md to read. Skills past the budget
 * are counted, not dropped silently; the snapshot keeps its room first, being the shorter and the
 * one every turn needs. Empty when there is nothing to add.
 */
export const renderHookContext = (input: HookContextInput): HookContext => {
  const maxChars = input.maxChars ?? MAX_HOOK_CONTEXT_CHARS
  const goal =
    input.snapshotUnavailable !== undefined
      ? `Armory goal snapshot unavailable (${contextLine(input.snapshotUnavailable)}): run \`armory goal repair\` to rebuild the goal files from the ledger, or \`armory goal status\` for the details.`
      : input.snapshot.trim() === ""
        ? ""
        : `Armory goal (armory://goals/snapshot):\n${contextBlock(input.snapshot.trim())}`
  const goalPart = goal.length <= maxChars ? goal : `${goal.slice(0, maxChars - 1)}…`
  if (input.armed.length === 0) return { text: goalPart, delivered: [] }
  const heading = `Armory skills armed by ${contextLine(input.trigger)}:`
  const budget = maxChars - goalPart.length - (goalPart === "" ? 0 : 2)
  // Every armed skill gets its line first; bodies then take what room is left, in order.
  const entries: Array<{ readonly armed: HookArmed; readonly named: string; readonly location: string; readonly evidence: string; readonly given: boolean; line: string; block?: string }> = []
  let notShown = ""
  let used = heading.length
  for (const [index, armed] of input.armed.entries()) {
    const named = `- ${contextLine(armed.name)} (${why(armed)})`
    const location = contextLine(armed.location)
    const given = armed.version !== undefined && input.given?.get(armed.name) === armed.version
    const lines = evidence(armed)
    const line = given
      ? `${named}: still armed; its SKILL.md (${location}) was given in full earlier in this session${lines}`
      : `${named}: read ${location} before acting on it${lines}`
    const rest = input.armed.length - index - 1
    const more = rest > 0 ? `\n- … and ${rest} more armed skills not shown` : ""
    if (used + 1 + line.length + more.length > budget) {
      notShown = `- … and ${input.armed.length - index} more armed skills not shown`
      used += 1 + notShown.length
      break
    }
    entries.push({ armed, named, location, evidence: lines, given, line })
    used += 1 + line.length
  }
  const delivered: Array<readonly [string, string]> = []
  for (const entry of entries) {
    const { armed } = entry
    if (entry.given || armed.body === undefined || armed.version === undefined) continue
    const whole = `${entry.named}: its SKILL.md (${entry.location}) follows in full${entry.evidence}`
    const block = bodyBlock(armed, armed.body)
    const cost = whole.length - entry.line.length + 2 + block.length
    if (used + cost > budget) continue
    entry.line = whole
    entry.block = block
    delivered.push([armed.name, armed.version])
    used += cost
  }
  const lines = [...entries.map((entry) => entry.line), ...(notShown === "" ? [] : [notShown])]
  const blocks = entries.flatMap((entry) => (entry.block === undefined ? [] : [entry.block]))
  const skills = [[heading, ...lines].join("\n"), ...blocks].join("\n\n")
  const text = goalPart === "" ? skills : `${skills}\n\n${goalPart}`
  return text.length <= maxChars ? { text, delivered } : { text: goalPart, delivered: [] }
}
