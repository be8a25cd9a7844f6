import { Ajv, type ValidateFunction } from "ajv"
import { Ajv2020 } from "ajv/dist/2020.js"
import { Schema } from "effect"

/** Bounds on a schema a server declares: compiled only within them. */
export const MAX_MCP_SCHEMA_BYTES = 64 * 1024
const MAX_MCP_SCHEMA_DEPTH = 32

export type JsonObject = { readonly [key: string]: unknown }

const depthOf = (value: unknown, limit: number): number => {
  let deepest = 0
  const stack: Array<readonly [unknown, number]> = [[value, 0]]
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as readonly [unknown, number]
    if (depth > deepest) deepest = depth
    if (deepest > limit) return deepest
    if (current !== null && typeof current === "object") for (const child of Object.values(current)) stack.push([child, depth + 1])
  }
  return deepest
}

/** The validator for a server's schemas: JSON Schema 2020-12 when a schema says so, draft-07 (MCP's common dialect) otherwise. */
export const makeValidators = () => {
  // `logger: false`: a server's odd schema must not make a library write to the host's stderr.
  const options = { strict: false, allErrors: false, validateFormats: false, logger: false } as const
  const draft07 = new Ajv(options)
  const draft2020 = new Ajv2020(options)
  return (schema: JsonObject): ValidateFunction => {
    const dialect = typeof schema["$schema"] === "string" ? schema["$schema"] : ""
    const { $schema: _dialect, $id: _id, ...rest } = schema
    return (dialect.includes("2020-12") ? draft2020 : draft07).compile(rest)
  }
}

/** Checks a schema a server declared before anything compiles it: its size and nesting are the server's to choose. */
export const usableSchema = (schema: unknown, what: string): { readonly schema: JsonObject } | { readonly reason: string } => {
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return { reason: `${what} is not an object` }
  const bytes = JSON.stringify(schema).length
  if (bytes > MAX_MCP_SCHEMA_BYTES) return { reason: `${what} is ${bytes} bytes, over the ${MAX_MCP_SCHEMA_BYTES}-byte limit` }
  if (depthOf(schema, MAX_MCP_SCHEMA_DEPTH) > MAX_MCP_SCHEMA_DEPTH) return { reason: `${what} is nested deeper than ${MAX_MCP_SCHEMA_DEPTH} levels` }
  return { schema: schema as JsonObject }
}

/** How the declarations show a schema: the server's own JSON Schema, without the keys that only name its dialect. */
export const declared = (schema: JsonObject, validate: (value: unknown) => true | string, expected: string) => {
  const { $schema: _dialect, $id: _id, ...shown } = schema
  return Schema.Json.check(Schema.makeFilter((value: unknown) => validate(value), { expected, toJsonSchema: () => shown }))
}

/** What a tool without an `outputSchema` answers: its content blocks, as MCP defines them. */
export const CONTENT_SCHEMA: JsonObject = {
  type: "array",
  items: {
    anyOf: [
      { type: "object", properties: { type: { const: "text" }, text: { type: "string" } }, required: ["type", "text"] },
      {
        type: "object",
        properties: { type: { enum: ["image", "audio"] }, data: { type: "string", description: "base64" }, mimeType: { type: "string" } },
        required: ["type", "data", "mimeType"]
      },
      { type: "object", properties: { type: { const: "resource_link" }, uri: { type: "string" }, name: { type: "string" } }, required: ["type", "uri", "name"] },
      {
        type: "object",
        properties: { type: { const: "resource" }, resource: { type: "object", properties: { uri: { type: "string" }, text: { type: "string" } }, required: ["uri"] } },
        required: ["type", "resource"]
      }
    ]
  }
}

/** A validator as a check: `true`, or what is wrong, field by field (`input /a must be number`). */
export const check = (validate: ValidateFunction, what: string) => (value: unknown): true | string =>
  validate(value) ? true : `${what} ${(validate.errors ?? []).map((issue) => `${issue.instancePath || "(the value)"} ${issue.message ?? "is invalid"}`).join("; ")}`
