import { type Schema, SchemaAST } from "effect"

/**
 * The shorter calls a tool's input schema admits besides its whole input. They are read from the
 * schema's encoded side, which is what a caller's value is matched against, and only where the
 * shorter value could not already be an input of its own: the value is rewritten before the one
 * decoding, so nothing the schema accepts today changes meaning.
 */
export interface CallForms {
  /** A call with no argument stands for `{}`: the input is an object none of whose fields is required. */
  readonly emptyObject: boolean
  /** A call with a lone string stands for `{ [stringField]: string }`: the input's one string field. */
  readonly stringField: string | undefined
}

const NONE: CallForms = { emptyObject: false, stringField: undefined }

const cache = new WeakMap<SchemaAST.AST, CallForms>()

/**
 * A string, possibly left out or null. A literal is not: its field is declared by its values, and a
 * string form, declared as `string`, would promise more than the field accepts.
 */
const isStringField = (ast: SchemaAST.AST): boolean => {
  if (SchemaAST.isString(ast) || SchemaAST.isTemplateLiteral(ast)) return true
  if (!SchemaAST.isUnion(ast)) return false
  const given = ast.types.filter((member) => !SchemaAST.isUndefined(member) && !SchemaAST.isNull(member))
  return given.length > 0 && given.every(isStringField)
}

/**
 * The field a lone string fills: the one required field when it is a string, or, when no field is
 * required, the one string field. Two candidates would make the string ambiguous, so there is none.
 */
const stringFieldOf = (ast: SchemaAST.Objects): string | undefined => {
  const required = ast.propertySignatures.filter((property) => !SchemaAST.isOptional(property.type))
  const candidates = required.length > 0 ? required : ast.propertySignatures.filter((property) => isStringField(property.type))
  const [only] = candidates
  return candidates.length === 1 && only !== undefined && typeof only.name === "string" && isStringField(only.type) ? only.name : undefined
}

const formsOf = (ast: SchemaAST.AST): CallForms => {
  // A check on the object itself may refuse `{}` for all its optional fields, and the AST cannot say.
  if (SchemaAST.isObjects(ast)) {
    return {
      emptyObject: ast.checks === undefined && ast.propertySignatures.every((property) => SchemaAST.isOptional(property.type)),
      stringField: stringFieldOf(ast)
    }
  }
  // An input that may be undefined already takes no argument. `Void` is not stripped with `Undefined`:
  // it accepts a string itself, which must keep meaning what it means today.
  if (SchemaAST.isUnion(ast)) {
    const given = ast.types.filter((member) => !SchemaAST.isUndefined(member))
    const [only] = given
    if (given.length === 1 && only !== undefined && SchemaAST.isObjects(only)) return { emptyObject: false, stringField: stringFieldOf(only) }
  }
  return NONE
}

const objectOf = (ast: SchemaAST.AST): SchemaAST.Objects | undefined => {
  if (SchemaAST.isObjects(ast)) return ast
  if (!SchemaAST.isUnion(ast)) return undefined
  const given = ast.types.filter((member) => !SchemaAST.isUndefined(member))
  const [only] = given
  return given.length === 1 && only !== undefined && SchemaAST.isObjects(only) ? only : undefined
}

/**
 * The object an input schema takes, written as a caller would write it — `{ ref?, selector?,
 * timeoutMs? }`, a `?` on each field that may be left out — or undefined when the input is not an
 * object. Names what a call must look like when a value of another kind was given.
 */
export const objectShape = (schema: Schema.Top): string | undefined => {
  const ast = objectOf(SchemaAST.toEncoded(schema.ast))
  if (ast === undefined) return undefined
  const fields = ast.propertySignatures.map((property) => `${String(property.name)}${SchemaAST.isOptional(property.type) ? "?" : ""}`)
  return fields.length === 0 ? "{}" : `{ ${fields.join(", ")} }`
}

/** The shorter calls `schema` admits, worked out once per schema. */
export const callForms = (schema: Schema.Top): CallForms => {
  const known = cache.get(schema.ast)
  if (known !== undefined) return known
  const found = formsOf(SchemaAST.toEncoded(schema.ast))
  cache.set(schema.ast, found)
  return found
}

/** The input a call's value stands for under `forms`; a value no shorter form covers is itself. */
export const expandCall = (forms: CallForms, value: unknown): unknown => {
  if (value === undefined && forms.emptyObject) return {}
  if (typeof value === "string" && forms.stringField !== undefined) return { [forms.stringField]: value }
  return value
}
