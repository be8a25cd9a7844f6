import { Result, Schema } from "effect"
import { splitFrontmatter } from "./Frontmatter.js"
import { describeIssue } from "./internal/issues.js"
import { parseYaml } from "./internal/yaml.js"
import { AutoInject, type SkillInfo, SkillFrontmatterFields } from "./SkillInfo.js"

/** Where a document was found: copied into the {@link SkillInfo} it decodes to. */
export interface SkillOrigin {
  readonly location: string
  readonly baseDirectory: string
  readonly source: string
}

/** What one SKILL.md decoded to: a skill (possibly without its refused `autoInject`), or a reason. */
export type SkillDocument =
  | { readonly _tag: "Loaded"; readonly skill: SkillInfo; readonly ignoredAutoInject?: string }
  | { readonly _tag: "Dropped"; readonly reason: string }

// Unknown keys are ignored (the default), which is also how `autoInject` is left for its own pass.
const decodeFrontmatter = Schema.decodeUnknownResult(Schema.Struct(SkillFrontmatterFields), { errors: "all" })
const decodeAutoInject = Schema.decodeUnknownResult(AutoInject, { errors: "all", onExcessProperty: "error" })

const utf8 = new TextDecoder("utf-8", { fatal: true })

const dropped = (reason: string): SkillDocument => ({ _tag: "Dropped", reason })

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
  const data = parseYaml(parts.success.yaml, 2)
  if (Result.isFailure(data)) return dropped(data.failure)
  const frontmatter = decodeFrontmatter(data.success)
  if (Result.isFailure(frontmatter)) {
    return dropped(`frontmatter rejected: ${describeIssue(frontmatter.failure.issue, data.success)}`)
  }
  const skill = { ...frontmatter.success, ...origin, body: parts.success.body }
  const declared = data.success as Record<string, unknown>
  if (!Object.hasOwn(declared, "autoInject")) return { _tag: "Loaded", skill }
  const autoInject = decodeAutoInject(declared["autoInject"])
  if (Result.isFailure(autoInject)) {
    return {
      _tag: "Loaded",
      skill,
      ignoredAutoInject: describeIssue(autoInject.failure.issue, declared["autoInject"], ["autoInject"])
    }
  }
  return { _tag: "Loaded", skill: { ...skill, autoInject: autoInject.success } }
}
