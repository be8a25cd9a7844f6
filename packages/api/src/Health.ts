import { Schema } from "effect"

/**
 * `GET /health`: the server answers, which version of Armory it runs (what `armory --version`
 * prints for `armory serve`) and which version of the contract it implements.
 */
export const Health = Schema.Struct({
  status: Schema.Literal("ok"),
  version: Schema.String.annotate({ description: "the version of the Armory server answering" }),
  api: Schema.String.annotate({ description: "the version of the HTTP API contract it implements" })
}).annotate({ identifier: "Health" })
export type Health = typeof Health.Type
