import { Schema } from "effect"
import { SkillInfo } from "./SkillInfo.js"

/** A document (or a source) that yielded no skill, and why. */
export const DroppedDocument = Schema.Struct({ file: Schema.String, reason: Schema.String })
export type DroppedDocument = typeof DroppedDocument.Type

/** A skill that loaded without its `autoInject` block, and why the block was refused. */
export const IgnoredAutoInject = Schema.Struct({ file: Schema.String, reason: Schema.String })
export type IgnoredAutoInject = typeof IgnoredAutoInject.Type

/**
 * A valid skill that lost a name clash to `by`, the location of the skill that was loaded under that
 * name. It does not arm and is not found by its bare name, but `address` (`<source name>:<name>`)
 * still reaches it, as hosts namespace the skills of a plugin.
 */
export const ShadowedSkill = Schema.Struct({
  name: Schema.String,
  file: Schema.String,
  by: Schema.String,
  address: Schema.String,
  skill: SkillInfo
})
export type ShadowedSkill = typeof ShadowedSkill.Type

/**
 * A loaded skill that breaks a rule without losing it, and why: its name does not match its
 * directory, something in it was recovered leniently, a glob works but is risky (e.g. a URL host
 * ending in a wildcard); or a source whose search stopped at a bound, with what went unsearched.
 */
export const ArmingWarningEntry = Schema.Struct({ file: Schema.String, reason: Schema.String })
export type ArmingWarningEntry = typeof ArmingWarningEntry.Type

/**
 * What one load found. Every SKILL.md discovered ends up in exactly one of `skills` (by its
 * `location`), `dropped` or `shadowed` (by `file`); `ignoredAutoInject` and `warnings` only annotate
 * loaded skills. `dropped` also names sources and directories that could not be read at all.
 */
export const LoadReport = Schema.Struct({
  skills: Schema.Array(SkillInfo),
  dropped: Schema.Array(DroppedDocument),
  ignoredAutoInject: Schema.Array(IgnoredAutoInject),
  shadowed: Schema.Array(ShadowedSkill),
  warnings: Schema.Array(ArmingWarningEntry)
})
export type LoadReport = typeof LoadReport.Type
