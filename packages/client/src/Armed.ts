import type * as SkillArming from "@armory/skill-arming"
import { Schema } from "effect"
import type { Assert, Equals } from "./internal/TypeEquality.js"

/**
 * A skill that armed, with the patterns that armed it.
 *
 * `@armory/skill-arming` is plain TypeScript without Effect, so it has no Schema to import: the
 * Schemas of such packages are declared here and pinned to the package's own type with a
 * compile-time equality check, so that a change to the package's type fails the build of this
 * contract instead of silently drifting from it.
 */
export const Armed = Schema.Struct({
  name: Schema.String,
  keywords: Schema.Array(Schema.String),
  urls: Schema.Array(Schema.String),
  paths: Schema.Array(Schema.String)
}).annotate({ identifier: "Armed" })

export type ArmedMatchesPackage = Assert<Equals<typeof Armed.Type, SkillArming.Armed>>

/** What `POST /skills/arm` arms for: a prompt, and optionally the page URL and the files in play. */
export const ArmRequest = Schema.Struct({
  prompt: Schema.String,
  url: Schema.optionalKey(Schema.String),
  paths: Schema.optionalKey(Schema.Array(Schema.String))
}).annotate({ identifier: "ArmRequest" })
export type ArmRequest = typeof ArmRequest.Type
