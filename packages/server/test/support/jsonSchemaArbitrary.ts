import fc from "fast-check"

export interface JsonSchema {
  readonly $ref?: string
  readonly type?: string
  readonly enum?: ReadonlyArray<unknown>
  readonly anyOf?: ReadonlyArray<JsonSchema>
  readonly items?: JsonSchema
  readonly properties?: Record<string, JsonSchema>
  readonly required?: ReadonlyArray<string>
  readonly minimum?: number
  readonly maximum?: number
  readonly maxLength?: number
}

/**
 * A fast-check arbitrary of the values a JSON Schema of the committed OpenAPI document accepts
 * (the subset the contract's Schemas produce), so the fuzzer follows the contract as it changes.
 */
export const arbitraryOf = (schema: JsonSchema, components: Record<string, JsonSchema>): fc.Arbitrary<unknown> => {
  if (schema.$ref !== undefined) {
    const target = components[schema.$ref.replace("#/components/schemas/", "")]
    if (target === undefined) throw new Error(`unresolved ${schema.$ref}`)
    return arbitraryOf(target, components)
  }
  if (schema.enum !== undefined) return fc.constantFrom(...schema.enum)
  if (schema.anyOf !== undefined) return fc.oneof(...schema.anyOf.map((member) => arbitraryOf(member, components)))
  switch (schema.type) {
    case "string":
      return fc.string({ maxLength: Math.min(schema.maxLength ?? 64, 64) })
    case "integer":
      return fc.integer({ min: schema.minimum ?? -1_000_000, max: schema.maximum ?? 1_000_000 })
    case "number":
      return fc.double({ noNaN: true, noDefaultInfinity: true })
    case "boolean":
      return fc.boolean()
    case "array":
      return fc.array(arbitraryOf(schema.items ?? {}, components), { maxLength: 4 })
    case "object": {
      const properties = Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([key, value]) => [key, arbitraryOf(value, components)])
      )
      return fc.record(properties, { requiredKeys: [...(schema.required ?? [])] })
    }
    default:
      return fc.jsonValue()
  }
}
