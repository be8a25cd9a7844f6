import { Schema } from "effect"

/**
 * JSON Schema (draft 2020-12, as Effect's `toJsonSchemaDocument` emits it) to TypeScript type text.
 * Synchronous and dependency-free so the catalog preview is a plain function of the tool tree.
 */

type JsonSchema = { readonly [key: string]: unknown }

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/

const asSchema = (value: unknown): JsonSchema | undefined =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as JsonSchema) : undefined

const asList = (value: unknown): ReadonlyArray<unknown> => (Array.isArray(value) ? value : [])

export const propertyKey = (name: string) => (IDENTIFIER.test(name) ? name : JSON.stringify(name))

/** A doc comment, or nothing; `*\/` in user text cannot close it early. */
export const docComment = (text: unknown, indent: string): ReadonlyArray<string> => {
  if (typeof text !== "string" || text.trim() === "") return []
  const lines = text.replaceAll("*/", "*\\/").trim().split("\n")
  return lines.length === 1 ? [`${indent}/** ${lines[0]} */`] : [`${indent}/**`, ...lines.map((line) => `${indent} * ${line}`), `${indent} */`]
}

const refName = (ref: string) => {
  const name = ref.slice(ref.lastIndexOf("/") + 1).replace(/[^A-Za-z0-9_$]/g, "_")
  return IDENTIFIER.test(name) ? name : `_${name}`
}

/**
 * Effect's JSON form of a number also accepts "Infinity", "-Infinity" and "NaN" as strings; the
 * declarations leave that spelling out, since a model has no use for it and it reads as noise.
 */
const isNonFiniteSpelling = (member: unknown): boolean => {
  const schema = asSchema(member)
  const values = asList(schema?.["enum"])
  return schema?.["type"] === "string" && values.length === 3 && ["Infinity", "-Infinity", "NaN"].every((value) => values.includes(value))
}

const union = (parts: ReadonlyArray<string>) => {
  const unique = [...new Set(parts)]
  return unique.length === 0 ? "never" : unique.join(" | ")
}

const parenthesised = (type: string) => (/[|&]/.test(type) && !/^[{(]/.test(type) ? `(${type})` : type)

export const typeOf = (value: unknown, indent: string): string => {
  if (value === true || value === undefined) return "unknown"
  if (value === false) return "never"
  const schema = asSchema(value)
  if (schema === undefined) return "unknown"
  if (typeof schema["$ref"] === "string") return refName(schema["$ref"])
  if ("const" in schema) return JSON.stringify(schema["const"])
  if (Array.isArray(schema["enum"])) return union(schema["enum"].map((member) => JSON.stringify(member)))
  const alternatives = asList(schema["anyOf"] ?? schema["oneOf"]).filter((member) => !isNonFiniteSpelling(member))
  if (alternatives.length > 0) return union(alternatives.map((member) => typeOf(member, indent)))
  const all = asList(schema["allOf"])
  if (all.length > 0) return all.map((member) => parenthesised(typeOf(member, indent))).join(" & ")
  const type = schema["type"]
  // How Effect spells an object with no fields: TypeScript's `{}` means the same, any value but null and undefined.
  if (type === undefined && asSchema(schema["not"])?.["type"] === "null") return "{}"
  if (Array.isArray(type)) return union(type.map((member) => typeOf({ ...schema, type: member }, indent)))
  switch (type) {
    case "string":
      return "string"
    case "number":
    case "integer":
      return "number"
    case "boolean":
      return "boolean"
    case "null":
      return "null"
    case "array": {
      const prefix = asList(schema["prefixItems"])
      if (prefix.length > 0) {
        const rest = schema["items"] === undefined || schema["items"] === false ? [] : [`...Array<${typeOf(schema["items"], indent)}>`]
        return `[${[...prefix.map((item) => typeOf(item, indent)), ...rest].join(", ")}]`
      }
      return `Array<${typeOf(schema["items"], indent)}>`
    }
    case "object":
      return objectType(schema, indent)
    default:
      return "unknown"
  }
}

const objectType = (schema: JsonSchema, indent: string): string => {
  const properties = asSchema(schema["properties"]) ?? {}
  const required = new Set(asList(schema["required"]).map(String))
  const inner = `${indent}  `
  const lines = Object.entries(properties).flatMap(([name, property]) => [
    ...docComment(asSchema(property)?.["description"], inner),
    `${inner}${propertyKey(name)}${required.has(name) ? "" : "?"}: ${typeOf(property, inner)}`
  ])
  const additional = schema["additionalProperties"]
  if (asSchema(additional) !== undefined) lines.push(`${inner}[key: string]: ${typeOf(additional, inner)}`)
  else if (lines.length === 0 && additional !== false) return "{ [key: string]: unknown }"
  return lines.length === 0 ? "{}" : `{\n${lines.join("\n")}\n${indent}}`
}

/** A schema's JSON Schema document: its root and the definitions its `$ref`s point to. */
export const jsonSchemaOf = (schema: Schema.Top) => {
  const document = Schema.toJsonSchemaDocument(schema)
  return { root: document.schema as unknown, definitions: document.definitions as Readonly<Record<string, unknown>> }
}

/** `type Name = …` for each named definition. */
export const definitionDeclarations = (definitions: Readonly<Record<string, unknown>>): ReadonlyArray<string> =>
  Object.entries(definitions).map(([name, definition]) => `type ${refName(name)} = ${typeOf(definition, "")}`)

/** Whether a tool takes no input: its input schema accepts only `null`/`undefined`. */
export const takesNoInput = (root: unknown): boolean => asSchema(root)?.["type"] === "null"

/**
 * For an input that may be left out (its schema also accepts `null`, the JSON form of `undefined`),
 * the schema of the value when it is given.
 */
export const optionalInput = (root: unknown): unknown => {
  const members = asList(asSchema(root)?.["anyOf"])
  const given = members.filter((member) => asSchema(member)?.["type"] !== "null")
  if (members.length < 2 || given.length !== members.length - 1) return undefined
  return given.length === 1 ? given[0] : { anyOf: given }
}
