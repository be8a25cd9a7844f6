import { Result } from "effect"
import { type Document, isNode, isScalar, parseDocument, visit, type YAMLError } from "yaml"
import { MAX_FRONTMATTER_ENTRIES, MAX_FRONTMATTER_NESTING } from "../Limits.js"
import { describeValue } from "./text.js"

// YAML 1.2 core schema: `yes`, `on` and dates stay strings. Duplicate keys are checked below in
// linear time instead of with the parser's `uniqueKeys`, whose pairwise comparison is quadratic.
const PARSE_OPTIONS = {
  version: "1.2",
  schema: "core",
  merge: false,
  uniqueKeys: false,
  prettyErrors: false,
  strict: true,
  stringKeys: false
} as const

const NEWLINE = 10
const SPACE = 32
const TAB = 9
const COMMA = 44

const isBlank = (code: number): boolean => code === SPACE || code === TAB
const isBlockIndicator = (code: number): boolean => code === 45 /* - */ || code === 63 /* ? */ || code === 58 /* : */
const isOpeningBracket = (code: number): boolean => code === 91 /* [ */ || code === 123 /* { */
const isClosingBracket = (code: number): boolean => code === 93 /* ] */ || code === 125 /* } */

/**
 * A single pass over the text that bounds what the parser would build, without parsing: entries
 * (lines, `,` separators, compact `- ` indicators and opening brackets, each at most a few nodes)
 * and nesting (compact indicators on a line plus open brackets; indentation alone cannot nest
 * deep enough to matter within the frontmatter size limit). Quoted brackets count too: the bound
 * only has to be conservative.
 */
const exceedsStructureBounds = (text: string): string | undefined => {
  let entries = 1
  let flowDepth = 0
  let compactIndicators = 0
  let atLineStart = true
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (code === NEWLINE) {
      entries++
      atLineStart = true
      compactIndicators = 0
    } else if (atLineStart && isBlank(code)) {
      continue
    } else if (atLineStart && isBlockIndicator(code) && isBlank(text.charCodeAt(index + 1))) {
      entries++
      compactIndicators++
      index++
    } else {
      atLineStart = false
      if (isOpeningBracket(code)) {
        entries++
        flowDepth++
      } else if (isClosingBracket(code)) {
        flowDepth = Math.max(0, flowDepth - 1)
      } else if (code === COMMA) {
        entries++
      }
    }
    if (compactIndicators + flowDepth > MAX_FRONTMATTER_NESTING) {
      return `YAML nested deeper than ${MAX_FRONTMATTER_NESTING} levels`
    }
    if (entries > MAX_FRONTMATTER_ENTRIES) {
      return `YAML has more than ${MAX_FRONTMATTER_ENTRIES} lines and entries`
    }
  }
  return undefined
}

const lineAndColumn = (text: string, offset: number, firstLine: number): string => {
  const before = text.slice(0, offset)
  const lineStart = before.lastIndexOf("\n") + 1
  let line = firstLine
  for (let index = before.indexOf("\n"); index !== -1; index = before.indexOf("\n", index + 1)) line++
  return `line ${line}, column ${offset - lineStart + 1}`
}

const describeYamlError = (error: YAMLError, text: string, firstLine: number): string =>
  `${error.message} at ${lineAndColumn(text, error.pos[0], firstLine)}`

/** The first reason the document's tree is refused: an alias, a non-scalar key, a duplicate key. */
const refuseTree = (document: Document, text: string, firstLine: number): string | undefined => {
  let refusal: string | undefined
  visit(document, {
    Alias(_, alias) {
      const where = alias.range ? ` at ${lineAndColumn(text, alias.range[0], firstLine)}` : ""
      refusal = `YAML alias *${alias.source}${where} refused: aliases are not allowed`
      return visit.BREAK
    },
    Map(_, map) {
      const seen = new Set<string>()
      for (const pair of map.items) {
        const where = isNode(pair.key) && pair.key.range ? ` at ${lineAndColumn(text, pair.key.range[0], firstLine)}` : ""
        if (!isScalar(pair.key)) {
          refusal = `YAML mapping key${where} refused: keys must be scalars`
          return visit.BREAK
        }
        // Two keys that become the same JavaScript property would silently overwrite each other.
        const property = String(pair.key.value)
        if (seen.has(property)) {
          refusal = `YAML duplicate key ${describeValue(property)}${where}`
          return visit.BREAK
        }
        seen.add(property)
      }
      return undefined
    }
  })
  return refusal
}

/**
 * Parses frontmatter YAML into plain data, or fails with the reason it was refused. `firstLine` is
 * the file line the text starts on, so reasons point into the SKILL.md itself.
 */
export const parseYaml = (text: string, firstLine: number): Result.Result<unknown, string> => {
  const bound = exceedsStructureBounds(text)
  if (bound !== undefined) return Result.fail(`YAML refused: ${bound}`)
  const document = parseDocument(text, PARSE_OPTIONS)
  const [error] = document.errors
  if (error !== undefined) return Result.fail(`invalid YAML: ${describeYamlError(error, text, firstLine)}`)
  const refusal = refuseTree(document, text, firstLine)
  if (refusal !== undefined) return Result.fail(`invalid YAML: ${refusal}`)
  return Result.succeed(document.toJS({ maxAliasCount: 0 }))
}
