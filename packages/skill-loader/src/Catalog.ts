import { Result, Schema } from "effect"
import type { LoadReport } from "./LoadReport.js"
import type { SkillInfo } from "./SkillInfo.js"
import { characterCount, graphemePrefix } from "./internal/text.js"

/** What the catalog shows of a skill: the name a model asks for, what it is for, and where its SKILL.md is. */
export interface CatalogEntry {
  readonly name: string
  readonly description: string
  readonly location: string
}

export interface CatalogOptions {
  /** The most characters (code points) the block may take, preamble and truncation note included (default 8,000). */
  readonly maxChars?: number | undefined
}

/** A budget too small for the catalog's frame: no entry would fit, so nothing useful can be rendered. */
export class CatalogBudgetTooSmall extends Schema.TaggedError<CatalogBudgetTooSmall>()("CatalogBudgetTooSmall", {
  maxChars: Schema.Number,
  minimum: Schema.Number
}) {
  override get message(): string {
    return `maxChars ${this.maxChars} is below the catalog's minimum of ${this.minimum} characters`
  }
}

/** A budget that is not a whole number of characters (`NaN`, `Infinity`, `-1`, `2.5`). */
export class InvalidCatalogBudget extends Schema.TaggedError<InvalidCatalogBudget>()("InvalidCatalogBudget", { maxChars: Schema.String }) {
  override get message(): string {
    return `maxChars must be a non-negative whole number of characters, got ${this.maxChars}`
  }
}

export const DEFAULT_CATALOG_MAX_CHARS = 8000

/** Shorter than this, a description no longer tells a model what the skill is for: skills are left out instead. */
const MIN_DESCRIPTION_CHARS = 60

const PREAMBLE =
  "The skills below are instructions you can follow. Use a skill when the task clearly matches its description: " +
  "read its SKILL.md (at its location) before acting and follow it; resolve paths it mentions against the directory " +
  "that holds it. Do not use a skill whose description does not clearly match the task."

const escapeXml = (text: string): string => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")

/** One line of text, whatever the author wrote: a description's line breaks and runs of blanks become single spaces. */
const oneLine = (text: string): string => text.replace(/[\s\p{Cc}]+/gu, " ").trim()

/**
 * A description cut to at most `limit` code points, the ellipsis included, at a grapheme boundary:
 * an accented letter, a flag or an emoji sequence is kept whole or left out whole.
 */
const cut = (text: string, limit: number): string =>
  characterCount(text) <= limit ? text : `${graphemePrefix(text, limit - 1).trimEnd()}…`

/** What naming a skill in the names line costs: its name and the separator. */
const nameCost = (entry: CatalogEntry): number => characterCount(nameItem(entry)) + 2

const renderEntry = ({ name, description, location }: CatalogEntry, descriptionLimit: number): string =>
  `<skill>\n<name>${escapeXml(name)}</name>\n<description>${escapeXml(cut(description, descriptionLimit))}</description>\n<location>${escapeXml(location)}</location>\n</skill>\n`

/** The skills named without description or location: one comma-separated line, a name costing little more than itself. */
const NAMES_OPEN = "<more_skills>"
const NAMES_CLOSE = "</more_skills>\n"
const nameItem = ({ name }: CatalogEntry): string => escapeXml(name)
const namesLine = (named: ReadonlyArray<CatalogEntry>): string => (named.length === 0 ? "" : `${NAMES_OPEN}${named.map(nameItem).join(", ")}${NAMES_CLOSE}`)

/** What was done to fit the budget, for the closing note. */
interface Shortening {
  readonly descriptionLimit?: number | undefined
  readonly nameOnly?: number | undefined
  readonly omitted?: number | undefined
}

const truncationNote = ({ descriptionLimit, nameOnly = 0, omitted = 0 }: Shortening, maxChars: number): string => {
  const parts = [
    ...(descriptionLimit === undefined ? [] : [`descriptions are cut to at most ${descriptionLimit} characters`]),
    ...(nameOnly > 0 ? [`${nameOnly} skill${nameOnly === 1 ? " is" : "s are"} named in <more_skills> only (look ${nameOnly === 1 ? "it" : "one"} up by name before using it)`] : []),
    ...(omitted > 0 ? [`${omitted} more skill${omitted === 1 ? " is" : "s are"} not listed`] : [])
  ]
  return parts.length === 0 ? "" : `(${parts.join("; ")}, to keep this list within ${maxChars} characters.)\n`
}

/** The block: `described` entries with their descriptions cut to `descriptionLimit`, then `named` by name only. */
const render = (described: ReadonlyArray<CatalogEntry>, named: ReadonlyArray<CatalogEntry>, shortening: Shortening, maxChars: number): string =>
  `${PREAMBLE}\n<available_skills>\n${described.map((entry) => renderEntry(entry, shortening.descriptionLimit ?? Number.POSITIVE_INFINITY)).join("")}${namesLine(named)}</available_skills>\n${truncationNote(shortening, maxChars)}`

/** An entry whose description is put on one line when first read: most entries of a large catalog never are. */
const entryOf = (skill: SkillInfo, name: string): CatalogEntry => {
  let description: string | undefined
  return {
    name,
    location: skill.location,
    get description() {
      description ??= oneLine(skill.description)
      return description
    }
  }
}

/** The entries of a load: every loaded skill by its name, then every shadowed one by its address. */
const entriesOf = (skills: ReadonlyArray<SkillInfo> | LoadReport): ReadonlyArray<CatalogEntry> => {
  if (Array.isArray(skills)) return (skills as ReadonlyArray<SkillInfo>).map((skill) => entryOf(skill, skill.name))
  const report = skills as LoadReport
  return [...report.skills.map((skill) => entryOf(skill, skill.name)), ...report.shadowed.map(({ address, skill }) => entryOf(skill, address))]
}

/**
 * The block a host puts in a model's context so it can choose a skill: a rule for when to use one,
 * then an `<available_skills>` list of name, description and location, in load order. Given a load
 * report, the skills that lost a name clash are listed too, by their `<source>:<name>` address.
 * When the full list is over `maxChars`, descriptions are shortened first (to the longest length
 * that fits, never under 60 characters, cut at a grapheme boundary), then the last skills are
 * named in one `<more_skills>` line without description or location, so every skill is still
 * named; only when not even every name fits are skills left out from the end. A closing line says
 * what was done. Throws {@link CatalogBudgetTooSmall} when not even one entry fits, and
 * {@link InvalidCatalogBudget} for a budget that is not a whole number.
 */
export const catalog = (skills: ReadonlyArray<SkillInfo> | LoadReport, options: CatalogOptions = {}): string => {
  const rendered = catalogResult(skills, options)
  if (Result.isFailure(rendered)) throw rendered.failure
  return rendered.success
}

/** {@link catalog} as a `Result`: the block, or the budget refusal, for callers that carry errors as values. */
export const catalogResult = (
  skills: ReadonlyArray<SkillInfo> | LoadReport,
  options: CatalogOptions = {}
): Result.Result<string, CatalogBudgetTooSmall | InvalidCatalogBudget> => {
  const maxChars = options.maxChars ?? DEFAULT_CATALOG_MAX_CHARS
  if (!Number.isSafeInteger(maxChars) || maxChars < 0) return Result.fail(new InvalidCatalogBudget({ maxChars: String(maxChars) }))
  const entries = entriesOf(skills)
  const frame = (shortening: Shortening) => characterCount(render([], [], shortening, maxChars))
  // Sizes are summed entry by entry and the sum stops at the budget, so a catalog of thousands of
  // skills costs what fits, not what is there; only the answer is rendered whole.
  const allFit = (descriptionLimit: number | undefined) => {
    let used = frame({ descriptionLimit })
    for (const entry of entries) {
      used += characterCount(renderEntry(entry, descriptionLimit ?? Number.POSITIVE_INFINITY))
      if (used > maxChars) return false
    }
    return used <= maxChars
  }
  if (allFit(undefined)) return Result.succeed(render(entries, [], {}, maxChars))
  if (allFit(MIN_DESCRIPTION_CHARS)) {
    // The longest description length that still fits, by bisection: sizes grow with it.
    let low = MIN_DESCRIPTION_CHARS
    let high = entries.reduce((longest, { description }) => Math.max(longest, characterCount(description)), MIN_DESCRIPTION_CHARS)
    while (low < high) {
      const middle = Math.ceil((low + high) / 2)
      if (allFit(middle)) low = middle
      else high = middle - 1
    }
    return Result.succeed(render(entries, [], { descriptionLimit: low }, maxChars))
  }
  // Short descriptions do not fit them all. Names come first: every skill is still named (as
  // Claude Code keeps every name), the first ones described and the rest in one line of names, as
  // many described as fit; only when not every name fits are the last left out and counted. The
  // note's counts change length with them, so each candidate is checked, not assumed.
  const shortening = (described: number, named: number): Shortening => ({
    ...(described > 0 ? { descriptionLimit: MIN_DESCRIPTION_CHARS } : {}),
    nameOnly: named,
    omitted: entries.length - described - named
  })
  const attempt = (described: number, named: number) =>
    render(entries.slice(0, described), entries.slice(described, described + named), shortening(described, named), maxChars)
  const fits = (described: number, named: number) => characterCount(attempt(described, named)) <= maxChars
  if (entries.length > 0 && fits(0, entries.length)) {
    let used = characterCount(attempt(0, entries.length))
    let described = 0
    for (const entry of entries) {
      used += characterCount(renderEntry(entry, MIN_DESCRIPTION_CHARS)) - nameCost(entry)
      if (used > maxChars) break
      described++
    }
    while (described > 0 && !fits(described, entries.length - described)) described--
    return Result.succeed(attempt(described, entries.length - described))
  }
  let used = frame(shortening(0, 0)) + characterCount(NAMES_OPEN) + characterCount(NAMES_CLOSE) - 2
  let named = 0
  for (const entry of entries) {
    used += nameCost(entry)
    if (used > maxChars) break
    named++
  }
  named = Math.max(0, Math.min(named, entries.length - 1))
  while (named > 0 && !fits(0, named)) named--
  if (named === 0) {
    return Result.fail(new CatalogBudgetTooSmall({ maxChars, minimum: entries.length === 0 ? frame({}) : characterCount(attempt(0, 1)) }))
  }
  return Result.succeed(attempt(0, named))
}

/**
 * The skill a reference names in a load: a loaded skill by its name, or any skill by its address
 * (`<source name>:<name>`), a shadowed one included. `undefined` when none matches.
 */
export const findSkill = (report: LoadReport, reference: string): SkillInfo | undefined =>
  report.skills.find((skill) => skill.name === reference) ??
  (reference.includes(":")
    ? (report.skills.find((skill) => skill.address === reference) ?? report.shadowed.find(({ address }) => address === reference)?.skill)
    : undefined)
