import { SchemaIssue } from "effect"
import { describeValue, formatPath } from "./text.js"

const formatter = SchemaIssue.makeFormatterStandardSchemaV1({
  leafHook: (issue) => (issue._tag === "UnexpectedKey" ? "Unexpected key" : SchemaIssue.defaultLeafHook(issue))
})

type Located = { readonly found: true; readonly value: unknown } | { readonly found: false }

const valueAt = (input: unknown, path: ReadonlyArray<PropertyKey>): Located => {
  let current = input
  for (const key of path) {
    if (typeof current !== "object" || current === null || !Object.hasOwn(current, key)) return { found: false }
    current = (current as Record<PropertyKey, unknown>)[key]
  }
  return { found: true, value: current }
}

/**
 * One line per problem, `at ["slash"]: Expected boolean, actual "yes please"`, joined with `; `.
 * The actual value is read from the input at the issue's path rather than retained by the decoder,
 * so it is always the value the author wrote, shortened to a bounded length.
 */
export const describeIssue = (issue: SchemaIssue.Issue, input: unknown, prefix: ReadonlyArray<PropertyKey> = []): string =>
  formatter(issue)
    .issues.map(({ path = [], message }) => {
      const keys = path.map((segment) => (typeof segment === "object" ? segment.key : segment))
      const at = prefix.length + keys.length === 0 ? "" : `at ${formatPath([...prefix, ...keys])}: `
      const located = message.startsWith("Expected") ? valueAt(input, keys) : { found: false as const }
      return `${at}${message}${located.found ? `, actual ${describeValue(located.value)}` : ""}`
    })
    .join("; ")
