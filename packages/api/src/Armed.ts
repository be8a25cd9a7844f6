import { Schema } from "effect"

/**
 * A skill that armed, with the patterns that armed it (`@armory/skill-arming`'s `Armed`).
 *
 * The contract imports no Armory runtime package, so every Schema that mirrors a package's type is
 * declared here; `@armory/server`'s tests pin each one to the package's own type at compile time and
 * to the package's own Schema by the values both accept, so a change there fails the build instead
 * of drifting from the contract.
 */
export const Armed = Schema.Struct({
  name: Schema.String,
  keywords: Schema.Array(Schema.String),
  urls: Schema.Array(Schema.String),
  paths: Schema.Array(Schema.String),
  edits: Schema.Array(Schema.Struct({ path: Schema.String, lines: Schema.Array(Schema.String) })).annotate({
    description: "for a skill with an edit condition: the edited files whose change met it, with the added lines that did"
  })
}).annotate({ identifier: "Armed" })
export type Armed = typeof Armed.Type

/** What `POST /skills/arm` arms for: a prompt, and optionally the page URL, the files in play and what edits changed. */
export const ArmRequest = Schema.Struct({
  prompt: Schema.String,
  url: Schema.optionalKey(Schema.String),
  paths: Schema.optionalKey(Schema.Array(Schema.String)),
  edits: Schema.optionalKey(
    Schema.Array(
      Schema.Struct({
        path: Schema.String,
        after: Schema.String.annotate({ description: "the text the edit put in" }),
        before: Schema.optionalKey(Schema.String.annotate({ description: "the text it replaced, when known" })),
        syntax: Schema.optionalKey(Schema.String.annotate({ description: "the language as an extension, when the path does not say it" }))
      })
    )
  )
}).annotate({ identifier: "ArmRequest" })
export type ArmRequest = typeof ArmRequest.Type
