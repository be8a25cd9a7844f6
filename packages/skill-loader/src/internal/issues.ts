import { SchemaIssue } from "effect"
import { describeValue, formatPath, printable } from "./text.js"
import { pathKey } from "./yaml.js"

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

const MAX_SOURCE_CHARS = 80

/**
 * One line per problem, `at ["slash"]: Expected boolean, actual "yes please"`, joined with `; `.
 * The actual value is read from the input at the issue's path rather than retained by the decoder,
 * and a plain scalar is shown as the author wrote it (`sources`, by path: `1.0`, not `1`),
 * shortened to a bounded length.
 */
export const describeIssue = (
  issue: SchemaIssue.Issue,
  input: unknown,
  prefix: ReadonlyArray<PropertyKey> = [],
  sources: ReadonlyMap<string, string> = new Map()
): string =>
  formatter(issue)
    .issues.map(({ path = [], message }) => {
      const keys = path.map((segment) => (typeof segment === "object" ? segment.key : segment))
      const at = prefix.length + keys.length === 0 ? "" : `at ${formatPath([...prefix, ...keys])}: `
      const located = message.startsWith("Expected") ? valueAt(input, keys) : { found: false as const }
      if (!located.found) return `${at}${message}`
      const written = typeof located.value === "string" ? undefined : sources.get(pathKey([...prefix, ...keys]))
      const actual = written === undefined ? describeValue(located.value) : printable(written.slice(0, MAX_SOURCE_CHARS))
      return `${at}${message}, actual ${actual}`
    })
    .join("; ")
