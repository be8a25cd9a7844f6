import { Schema } from "effect"

/**
 * `@armory/skill-loader`'s load report, mirrored like `Armed`. These are answers, so they document
 * the shapes the loader produces; the loader alone decides what a valid skill is.
 */

const NonBlank = Schema.String.check(Schema.isPattern(/\S/, { description: "a non-blank string" }))

const ArmingPatterns = Schema.optionalKey(Schema.Array(NonBlank))

/** A loaded skill: its frontmatter, where it was found and its Markdown body. */
export const SkillInfo = Schema.Struct({
  name: Schema.String.check(
    Schema.isMinLength(1),
    Schema.isMaxLength(64),
    Schema.isPattern(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, {
      description: "lowercase letters, digits and single inner hyphens (a-z, 0-9, -)"
    })
  ),
  description: NonBlank.check(Schema.isMaxLength(1024)),
  slash: Schema.optionalKey(Schema.Boolean),
  icon: Schema.optionalKey(Schema.String.annotate({ description: "an http or https URL" })),
  license: Schema.optionalKey(Schema.String),
  compatibility: Schema.optionalKey(NonBlank.check(Schema.isMaxLength(500))),
  "allowed-tools": Schema.optionalKey(Schema.Union([Schema.String, Schema.Array(Schema.String)])),
  metadata: Schema.optionalKey(Schema.Record(Schema.String, Schema.String)),
  autoInject: Schema.optionalKey(
    Schema.Struct({
      keywords: ArmingPatterns,
      url: ArmingPatterns,
      paths: ArmingPatterns,
      requested: Schema.optionalKey(Schema.Boolean),
      unless: ArmingPatterns,
      edits: Schema.optionalKey(Schema.Struct({ comments: Schema.optionalKey(Schema.Boolean), added: ArmingPatterns }))
    })
  ),
  location: Schema.String.annotate({ description: "the SKILL.md's absolute path, as reached from its source" }),
  baseDirectory: Schema.String.annotate({ description: "the directory relative references in the body resolve against" }),
  source: Schema.String.annotate({ description: "directory:<absolute path> or file:<absolute path>" }),
  address: Schema.String.annotate({ description: "<source name>:<name>: reaches the skill even when an earlier source's skill of the same name shadows it" }),
  body: Schema.String
}).annotate({ identifier: "SkillInfo" })
export type SkillInfo = typeof SkillInfo.Type

const FileReason = Schema.Struct({ file: Schema.String, reason: Schema.String })

/**
 * What one load found: every SKILL.md ends up in exactly one of `skills`, `dropped` or `shadowed`;
 * `ignoredAutoInject` and `warnings` annotate loaded skills.
 */
export const LoadReport = Schema.Struct({
  skills: Schema.Array(SkillInfo),
  dropped: Schema.Array(FileReason),
  ignoredAutoInject: Schema.Array(FileReason),
  shadowed: Schema.Array(
    Schema.Struct({
      name: Schema.String,
      file: Schema.String,
      by: Schema.String.annotate({ description: "the location of the skill loaded under that name" }),
      address: Schema.String.annotate({ description: "<source name>:<name>, by which the shadowed skill is still reached" }),
      skill: SkillInfo
    })
  ),
  warnings: Schema.Array(FileReason)
}).annotate({ identifier: "LoadReport" })
export type LoadReport = typeof LoadReport.Type
