import { Result, Schema } from "effect"
import { splitFrontmatter } from "./Frontmatter.js"
import { describeIssue } from "./internal/issues.js"
import { describeValue } from "./internal/text.js"
import { parseYaml, pathKey, plainScalarSources } from "./internal/yaml.js"
import { AutoInject, type SkillInfo, SkillFrontmatterFields } from "./SkillInfo.js"

/** Where a document was found: copied into the {@link SkillInfo} it decodes to. */
export interface SkillOrigin {
  readonly location: string
  readonly baseDirectory: string
  readonly source: string
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

const decodeText = (bytes: Uint8Array): Result.Result<string, string> => {
  if (bytes.includes(0)) return Result.fail("binary file: contains NUL bytes")
  try {
    return Result.succeed(utf8.decode(bytes))
  } catch {
    return Result.fail("invalid UTF-8: the file is not UTF-8 text")
  }
}

/**
 * Decodes one SKILL.md on its own. Never throws: every way a document can be wrong — not text,
 * no or oversized frontmatter, YAML that is invalid or refused (aliases, duplicate keys, past the
 * structure bounds), a frontmatter field that does not decode — is a `Dropped` reason. A malformed
 * `autoInject` costs only itself: the skill loads without it and the reason is returned beside it.
 */
export const decodeSkillDocument = (bytes: Uint8Array, origin: SkillOrigin): SkillDocument => {
  const text = decodeText(bytes)
  if (Result.isFailure(text)) return dropped(text.failure)
  const parts = splitFrontmatter(text.success)
  if (Result.isFailure(parts)) return dropped(parts.failure)
  const yaml = parts.success.yaml
  const data = parseYaml(yaml, 2)
  if (Result.isFailure(data)) return dropped(data.failure)
  let scalars: ReadonlyMap<string, string> | undefined
  const sources = () => (scalars ??= plainScalarSources(yaml))
  const { declared, warning } = isMapping(data.success) ? recoverMetadata(data.success, sources) : { declared: data.success, warning: undefined }
  const warnings = warning === undefined ? {} : { warnings: [warning] }
  const frontmatter = decodeFrontmatter(declared)
  if (Result.isFailure(frontmatter)) {
    return dropped(`frontmatter rejected: ${describeIssue(frontmatter.failure.issue, declared, [], sources())}`)
  }
  const skill = { ...frontmatter.success, ...origin, body: parts.success.body }
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
