import { OpenApi } from "effect/http-api"
import { Api } from "./Api.js"

type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [key: string]: Json }

/** Object keys in code-point order at every depth, so the text never depends on declaration order. */
const sortKeys = (value: Json): Json => {
  if (Array.isArray(value)) return value.map(sortKeys)
  if (value === null || typeof value !== "object") return value
  const entries = Object.entries(value as { readonly [key: string]: Json })
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return Object.fromEntries(entries.map(([key, inner]) => [key, sortKeys(inner)]))
}

/** The OpenAPI 3.1 document of {@link Api}, with stable key order. */
export const openApiDocument = (): Json => sortKeys(JSON.parse(JSON.stringify(OpenApi.fromApi(Api))) as Json)

/** {@link openApiDocument} as the committed `openapi.json` text: two-space indented, newline-terminated. */
export const openApiText = (): string => `${JSON.stringify(openApiDocument(), null, 2)}\n`
