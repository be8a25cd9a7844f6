import { basename } from "node:path"
import { Result, Schema } from "effect"
import { contractBlock, contractFrontmatter } from "./internal/contractDocument.js"
import { splitFrontmatter } from "./Frontmatter.js"
import { describeIssue } from "./internal/issues.js"
import { characterCount, describeValue, graphemePrefix } from "./internal/text.js"
import { isYamlSyntaxError, parseYaml, pathKey, plainScalarSources, quotePlainValuesWithColons } from "./internal/yaml.js"
import { AutoInject, type SkillInfo, SkillFrontmatterFields } from "./SkillInfo.js"

/** Where a document was found: copied into the {@link SkillInfo} it decodes to (`sourceName` makes its `address`). */
export interface SkillOrigin {
  readonly location: string
  readonly baseDirectory: string
  readonly source: string
  readonly sourceName: string
}

/**
 * What one SKILL.md decoded to: a skill (possibly without its refused `autoInject`, possibly with
 * what was recovered leniently in `warnings`), or a reason.
 */
export type SkillDocument =
  | { readonly _tag: "Loaded"; readonly skill: SkillInfo; readonly ignoredAutoInject?: string; readonly warnings?: ReadonlyArray<string> }
  | { readonly _tag: "Dropped"; readonly reason: string }

// Unknown keys are ignored (the default), which is also how `autoInject` is left for its own pass.
const decodeFrontmatter = Schema.decodeUnknownResult(Schema.Struct(SkillFrontmatterFields), { errors: "all" })
const decodeAutoInject = Schema.decodeUnknownResult(AutoInject, { errors: "all", onExcessProperty: "error" })

const utf8 = new TextDecoder("utf-8", { fatal: true })

const dropped = (reason: string): SkillDocument => ({ _tag: "Dropped", reason })

const isMapping = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)

/**
 * Agent Skills `metadata` maps strings to strings, but real documents write numbers, booleans and
 * nested blocks (OpenClaw's `metadata.openclaw`). The client guide says to recover leniently: each
 * such value is kept as its text — a scalar as the author wrote it, a block as JSON — and named in a
 * warning, instead of costing the whole skill.
 */
const recoverMetadata = (
  declared: Record<string, unknown>,
  sources: () => ReadonlyMap<string, string>
): { readonly declared: Record<string, unknown>; readonly warning?: string } => {
  const metadata = declared["metadata"]
  if (!isMapping(metadata)) return { declared }
  const recovered: Array<string> = []
  const entries = Object.entries(metadata).map(([key, value]): [string, unknown] => {
    if (typeof value === "string") return [key, value]
    const text = isMapping(value) || Array.isArray(value) ? JSON.stringify(value) : (sources().get(pathKey(["metadata", key])) ?? String(value))
    recovered.push(`${describeValue(key)} (${describeValue(text)})`)
    return [key, text]
  })
  if (recovered.length === 0) return { declared }
  return {
    declared: { ...declared, metadata: Object.fromEntries(entries) },
    warning: `metadata values kept as text, as Agent Skills metadata maps strings to strings: ${recovered.join(", ")}`
  }
}

/**
 * The Agent Skills fields Armory only carries (`license`, `compatibility`, `allowed-tools`, and
 * `metadata` as a whole) never cost a skill the hosts list: a value of the wrong kind is kept as
 * its text (a block as JSON) where a string is expected, or left out, each with a warning.
 */
const recoverCarriedFields = (declared: Record<string, unknown>): { readonly declared: Record<string, unknown>; readonly warning?: string } => {
  const kept: Array<string> = []
  const left: Array<string> = []
  const fixed = { ...declared }
  for (const key of ["license", "compatibility"] as const) {
    const value = declared[key]
    if (value === undefined || value === null || typeof value === "string") continue
    fixed[key] = typeof value === "object" ? JSON.stringify(value) : String(value)
    kept.push(`${key} (${describeValue(fixed[key])})`)
  }
  const tools = declared["allowed-tools"]
  if (tools !== undefined && tools !== null && typeof tools !== "string" && !(Array.isArray(tools) && tools.every((tool) => typeof tool === "string"))) {
    delete fixed["allowed-tools"]
    left.push(`allowed-tools (${describeValue(tools)})`)
  }
  const metadata = declared["metadata"]
  if (metadata !== undefined && metadata !== null && !isMapping(metadata)) {
    delete fixed["metadata"]
    left.push(`metadata (${describeValue(metadata)}, not a map)`)
  }
  if (kept.length === 0 && left.length === 0) return { declared }
  const parts = [kept.length === 0 ? "" : `kept as text: ${kept.join(", ")}`, left.length === 0 ? "" : `left out: ${left.join(", ")}`].filter((part) => part !== "")
  return { declared: fixed, warning: `Agent Skills fields of the wrong kind, ${parts.join("; ")}` }
}

const AGENT_SKILLS_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

/** A name as an Agent Skills id: letters and digits lowercased, every other run a single hyphen, at most 64. */
const nameId = (text: string): string =>
  text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 64)
    .replace(/-+$/, "")

/**
 * Claude Code and OpenCode list a skill whose name is not an Agent Skills name (`Ahrefs
 * Automation`, `docker_hub-automation`), and one with no name under its folder's. Such a skill is
 * kept under the id its name gives, else its folder's (a name in another script, `飞书文档`, gives
 * none), with a warning naming both; only when neither gives an id does it cost the skill.
 */
const recoverName = (declared: Record<string, unknown>, folder: string): { readonly declared: Record<string, unknown>; readonly warning?: string } => {
  const name = declared["name"]
  if (typeof name === "string" && AGENT_SKILLS_NAME.test(name) && name.length <= 64) return { declared }
  if (name !== undefined && name !== null && typeof name !== "string") return { declared }
  const written = typeof name === "string" && name.trim() !== "" ? name : undefined
  const fromName = written === undefined ? "" : nameId(written)
  const id = fromName === "" ? nameId(folder) : fromName
  if (id === "") return { declared }
  return {
    declared: { ...declared, name: id },
    warning:
      written === undefined
        ? `no name: loaded as ${describeValue(id)}, its folder's name, as the hosts load it`
        : fromName === ""
          ? `name ${describeValue(written)} gives no Agent Skills name (a-z, 0-9 and single inner hyphens): loaded as ${describeValue(id)}, its folder's name`
          : `name ${describeValue(written)} is not an Agent Skills name (a-z, 0-9 and single inner hyphens, at most 64): loaded as ${describeValue(id)}, as the hosts load it`
  }
}

const MAX_DESCRIPTION_CHARACTERS = 1024

/** What the hosts show for a skill that declares no description: the first line of text of its body, heading marks, `---` lines and HTML comments left out. */
const firstLineOf = (body: string): string | undefined => {
  for (const line of body.split(/\r?\n/u)) {
    const text = line.replace(/^\s*#{1,6}(?=\s|$)/u, "").trim()
    if (text !== "" && !/^-{3,}$/u.test(text) && !/^<!--.*-->$/u.test(text)) return graphemePrefix(text, MAX_DESCRIPTION_CHARACTERS)
  }
  return undefined
}

/**
 * A skill without a description is described, as Claude Code describes it, by the first line of
 * its body, with a warning; a body without text leaves it without one (and the skill is dropped).
 * One over 1,024 characters is cut there, between graphemes, with a warning.
 */
const recoverDescription = (declared: Record<string, unknown>, body: string): { readonly declared: Record<string, unknown>; readonly warning?: string } => {
  const description = declared["description"]
  if (typeof description === "string" && description.trim() !== "") {
    const cut = graphemePrefix(description, MAX_DESCRIPTION_CHARACTERS)
    if (cut === description) return { declared }
    return {
      declared: { ...declared, description: cut },
      warning: `description of ${characterCount(description)} characters cut to the first ${characterCount(cut)}: at most ${MAX_DESCRIPTION_CHARACTERS}, as the Agent Skills rule says`
    }
  }
  if (!(description === undefined || description === null || typeof description === "string")) return { declared }
  const line = firstLineOf(body)
  if (line === undefined) return { declared }
  return { declared: { ...declared, description: line }, warning: `no description: described by its first line, ${describeValue(line)}, as the hosts describe it` }
}

// Greedy to the line's end and trimmed in code: a lazy match before trailing blanks is quadratic on a line of blanks.
const TOP_LEVEL_FIELD = /^(name|description)[ \t]*:(.*)$/gmu

/** A scalar as written on its line, its quotes or trailing comment taken off; a block scalar's indicator (`>`, `|`) is no value. */
const lineValue = (written: string): string | undefined => {
  const text = written.trim()
  const quote = text[0]
  const closing = quote === '"' || quote === "'" ? text.lastIndexOf(quote) : -1
  const quoted = closing > 0 && /^(?:\s+#.*)?$/u.test(text.slice(closing + 1))
  const comment = quoted ? -1 : text.search(/[ \t]#/u)
  const value = quoted ? text.slice(1, closing) : (comment === -1 ? text : text.slice(0, comment)).trimEnd()
  return value === "" || /^[>|][+-]?\d*$/u.test(value) ? undefined : value
}

/**
 * `name` and `description` read line by line from frontmatter that is not YAML, as the hosts read
 * them: only top-level `key: value` lines count; anything else is left for the folder's name and
 * the body's first line.
 */
const fieldsByLine = (text: string): Record<string, unknown> => {
  const fields: Record<string, unknown> = {}
  for (const [, key = "", written = ""] of text.matchAll(TOP_LEVEL_FIELD)) {
    const value = lineValue(written)
    if (value !== undefined && !Object.hasOwn(fields, key)) fields[key] = value
  }
  return fields
}

const decodeText = (bytes: Uint8Array): Result.Result<string, string> => {
  if (bytes.includes(0)) return Result.fail("binary file: contains NUL bytes")
  try {
    return Result.succeed(utf8.decode(bytes))
  } catch {
    return Result.fail("invalid UTF-8: the file is not UTF-8 text")
  }
}

/** The optional Agent Skills fields an author may leave empty (`license:`): empty means absent. */
const EMPTY_MEANS_ABSENT = ["license", "compatibility", "allowed-tools", "metadata"] as const

const withoutEmptyOptionals = (declared: Record<string, unknown>): Record<string, unknown> =>
  EMPTY_MEANS_ABSENT.some((key) => Object.hasOwn(declared, key) && declared[key] === null)
    ? Object.fromEntries(Object.entries(declared).filter(([key, value]) => !(value === null && (EMPTY_MEANS_ABSENT as ReadonlyArray<string>).includes(key))))
    : declared

/**
 * The frontmatter's data. When the YAML does not parse and a top-level plain value holds `": "`,
 * the parse is retried with those values quoted: a success loads with a warning naming what was
 * quoted, a failure keeps the original reason and says what to quote.
 */
const parseFrontmatterYaml = (
  yaml: string
): Result.Result<{ readonly yaml: string; readonly data: unknown; readonly recovered?: string }, string> => {
  const data = parseYaml(yaml, 2)
  if (Result.isSuccess(data)) return Result.succeed({ yaml, data: data.success })
  const quoted = quotePlainValuesWithColons(yaml)
  if (quoted === null) return Result.fail(data.failure)
  const keys = quoted.keys.map((key) => describeValue(key)).join(", ")
  const retried = parseYaml(quoted.text, 2)
  if (Result.isFailure(retried)) return Result.fail(`${data.failure} (a plain value holding ": " must be quoted: ${keys})`)
  return Result.succeed({
    yaml: quoted.text,
    data: retried.success,
    recovered: `YAML recovered: the plain value of ${keys} holds ": ", so it was read as a quoted string (quote it)`
  })
}

/**
 * Decodes one SKILL.md on its own. Never throws: every way a document can be wrong — not text,
 * no or oversized frontmatter, YAML that is invalid or refused (aliases, duplicate keys, past the
 * structure bounds), a frontmatter field that does not decode — is a `Dropped` reason. A malformed
 * `autoInject` costs only itself: the skill loads without it and the reason is returned beside it.
 * A litopencode contract document (no frontmatter; a `## #contract.activation` YAML block) is read
 * from its contract block, and its whole text is the body.
 */
export const decodeSkillDocument = (bytes: Uint8Array, origin: SkillOrigin): SkillDocument => {
  const text = decodeText(bytes)
  if (Result.isFailure(text)) return dropped(text.failure)
  const parts = splitFrontmatter(text.success)
  if (Result.isFailure(parts)) {
    const whole = text.success.startsWith("\uFEFF") ? text.success.slice(1) : text.success
    const contract = whole.startsWith("---") ? undefined : contractBlock(whole)
    if (contract === undefined) {
      // The hosts list such a document all the same, under its folder's name: so does the loader, with the reason as a warning.
      if (whole.startsWith("---") && !parts.failure.startsWith("frontmatter not closed")) return dropped(parts.failure)
      const unclosed = whole.startsWith("---")
      return decodeDeclared(unclosed ? fieldsByLine(whole) : {}, "", whole, origin, [unclosed ? `${parts.failure}: name and description read line by line, as the hosts read them` : parts.failure], "frontmatter")
    }
    if (Result.isFailure(contract)) return dropped(contract.failure)
    const data = parseYaml(contract.success.yaml, contract.success.firstLine)
    if (Result.isFailure(data)) return dropped(`contract block: ${data.failure}`)
    const { declared, warnings } = contractFrontmatter(data.success)
    return decodeDeclared(declared, contract.success.yaml, whole, origin, warnings, "contract block")
  }
  const parsed = parseFrontmatterYaml(parts.success.yaml)
  if (Result.isFailure(parsed)) {
    if (!isYamlSyntaxError(parsed.failure)) return dropped(parsed.failure)
    const byLine = fieldsByLine(parts.success.yaml)
    return decodeDeclared(byLine, "", parts.success.body, origin, [`${parsed.failure}: name and description read line by line, as the hosts read them`], "frontmatter")
  }
  const { yaml, data, recovered } = parsed.success
  return decodeDeclared(data, yaml, parts.success.body, origin, recovered === undefined ? [] : [recovered], "frontmatter")
}

/** A document's metadata (frontmatter or contract block, parsed from `yaml`) decoded into a skill with `body`. */
const decodeDeclared = (
  data: unknown,
  yaml: string,
  body: string,
  origin: SkillOrigin,
  recovered: ReadonlyArray<string>,
  what: "frontmatter" | "contract block"
): SkillDocument => {
  let scalars: ReadonlyMap<string, string> | undefined
  const sources = () => (scalars ??= plainScalarSources(yaml))
  const carried = isMapping(data) ? recoverCarriedFields(withoutEmptyOptionals(data)) : { declared: data, warning: undefined }
  const metadata = isMapping(carried.declared) ? recoverMetadata(carried.declared, sources) : { declared: carried.declared, warning: undefined }
  const named = isMapping(metadata.declared) ? recoverName(metadata.declared, basename(origin.baseDirectory)) : { declared: metadata.declared, warning: undefined }
  const described = isMapping(named.declared) ? recoverDescription(named.declared, body) : { declared: named.declared, warning: undefined }
  const { declared } = described
  const recoveries = [...recovered, carried.warning, metadata.warning, named.warning, described.warning].filter((warning) => warning !== undefined)
  const warnings = recoveries.length === 0 ? {} : { warnings: recoveries }
  const frontmatter = decodeFrontmatter(declared)
  if (Result.isFailure(frontmatter)) {
    return dropped(`${what} rejected: ${describeIssue(frontmatter.failure.issue, declared, [], sources())}`)
  }
  const { sourceName, ...where } = origin
  const skill = { ...frontmatter.success, ...where, address: `${sourceName}:${frontmatter.success.name}`, body }
  if (!isMapping(declared) || !Object.hasOwn(declared, "autoInject")) return { _tag: "Loaded", skill, ...warnings }
  const autoInject = decodeAutoInject(declared["autoInject"])
  if (Result.isFailure(autoInject)) {
    return {
      _tag: "Loaded",
      skill,
      ignoredAutoInject: describeIssue(autoInject.failure.issue, declared["autoInject"], ["autoInject"], sources()),
      ...warnings
    }
  }
  return { _tag: "Loaded", skill: { ...skill, autoInject: autoInject.success }, ...warnings }
}
