import { Schema } from "effect"
import { characterCount } from "./internal/text.js"

const nonBlank = Schema.makeFilter((text: string) => /\S/.test(text), { expected: "a non-blank string" })

const atMostCharacters = (limit: number) =>
  Schema.makeFilter(
    (text: string) => {
      const count = characterCount(text)
      return count <= limit ? undefined : `Expected at most ${limit} characters, got ${count}`
    },
    { expected: `at most ${limit} characters` }
  )

const isHttpUrl = (text: string): boolean => {
  if (!URL.canParse(text)) return false
  const { protocol } = new URL(text)
  return protocol === "http:" || protocol === "https:"
}

/** A skill's name, by the Agent Skills rule: 1–64 of `a-z0-9-`, no leading, trailing or doubled hyphen. */
export const SkillName = Schema.String.check(
  Schema.isMinLength(1),
  Schema.isMaxLength(64),
  Schema.isPattern(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, {
    expected: "lowercase letters, digits and single inner hyphens (a-z, 0-9, -)"
  })
)

/** What the model reads to decide whether the skill applies: 1–1024 characters (code points), not blank. */
export const SkillDescription = Schema.String.check(atMostCharacters(1024), nonBlank)

const ArmingPattern = Schema.String.check(nonBlank)

/** What an edit must have changed for the skill to arm on it: a comment, or a line holding a pattern. */
export const EditCondition = Schema.Struct({
  comments: Schema.optionalKey(Schema.Boolean),
  added: Schema.optionalKey(Schema.Array(ArmingPattern))
})

/**
 * When a host arms the skill without being asked: keywords in the prompt (with `requested`, only
 * inside a request; never when an `unless` pattern is there), URL globs for the page being worked
 * on, path globs for the files being changed (with `edits`, only when the edit changed what it
 * names). Structurally the `AutoInject` that `@armory/skill-arming` consumes.
 */
export const AutoInject = Schema.Struct({
  keywords: Schema.optionalKey(Schema.Array(ArmingPattern)),
  url: Schema.optionalKey(Schema.Array(ArmingPattern)),
  paths: Schema.optionalKey(Schema.Array(ArmingPattern)),
  /** Keywords count only inside a request ("open the browser"), never in a passing mention. */
  requested: Schema.optionalKey(Schema.Boolean),
  /** Keyword patterns that, found in the prompt, keep the keywords from arming the skill. */
  unless: Schema.optionalKey(Schema.Array(ArmingPattern)),
  /** Arm on an edit only when it added or changed a comment (`comments: true`) or a line holding an `added` pattern. */
  edits: Schema.optionalKey(EditCondition)
})
export type AutoInject = typeof AutoInject.Type

/** Every frontmatter field except `autoInject`, which is decoded on its own so a bad one costs only itself. */
export const SkillFrontmatterFields = {
  name: SkillName,
  description: SkillDescription,
  slash: Schema.optionalKey(Schema.Boolean),
  icon: Schema.optionalKey(Schema.String.check(Schema.makeFilter(isHttpUrl, { expected: "an http or https URL" }))),
  license: Schema.optionalKey(Schema.String),
  compatibility: Schema.optionalKey(Schema.String.check(atMostCharacters(500), nonBlank)),
  "allowed-tools": Schema.optionalKey(Schema.Union([Schema.String, Schema.Array(Schema.String)])),
  metadata: Schema.optionalKey(Schema.Record(Schema.String, Schema.String))
}

/**
 * The YAML frontmatter of a SKILL.md. Keys it does not name are accepted and left out of the
 * decoded value, so a newer or host-specific field never costs a skill.
 */
export const SkillFrontmatter = Schema.Struct({
  ...SkillFrontmatterFields,
  autoInject: Schema.optionalKey(AutoInject)
})
export type SkillFrontmatter = typeof SkillFrontmatter.Type

/**
 * A loaded skill: its decoded frontmatter, where it was found and its Markdown body (the text after
 * the closing `---` line, verbatim), so a host can inject it without reading the file again.
 */
export const SkillInfo = Schema.Struct({
  ...SkillFrontmatter.fields,
  /** Absolute path of the SKILL.md, as reached from its source (symbolic links are not resolved). */
  location: Schema.String,
  /** The directory holding the SKILL.md: relative references in the body resolve against it. */
  baseDirectory: Schema.String,
  /** The source the skill came from: `directory:<absolute path>` or `file:<absolute path>`. */
  source: Schema.String,
  /** `<source name>:<name>`: finds this skill even when a skill of the same name from an earlier source shadows it. */
  address: Schema.String,
  body: Schema.String
})
export type SkillInfo = typeof SkillInfo.Type
