import { Schema } from "effect"

/** `GET /health`: the server answers, and which version of the contract it implements. */
export const Health = Schema.Struct({
  status: Schema.Literal("ok"),
  version: Schema.String
}).annotate({ identifier: "Health" })
export type Health = typeof Health.Type
