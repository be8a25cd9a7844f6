import { Result } from "effect"
import { CORE_SCHEMA, EVENT_ID, getScalarValue, load, parseEvents, SCALAR_STYLE, type ScalarEvent, YAMLException } from "js-yaml"
import { MAX_FRONTMATTER_ENTRIES, MAX_FRONTMATTER_NESTING } from "../Limits.js"
import { describeValue } from "./text.js"

// YAML 1.2 core schema (`yes`, `on` and dates stay strings, no `<<` merge, no custom tags). Every
// alias is refused, so a billion-laughs document never expands; duplicate keys and collection keys
// are errors of the parser itself.
const LOAD_OPTIONS = { schema: CORE_SCHEMA, maxAliases: 0, maxDepth: MAX_FRONTMATTER_NESTING, json: false } as const

const NESTED_TOO_DEEP = `YAML nested deeper than ${MAX_FRONTMATTER_NESTING} levels`

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
 * and nesting (compact indicators on a line plus open brackets; nesting by indentation costs a
 * line per level and is bounded by the parser's own depth limit). Quoted brackets count too: the
 * bound only has to be conservative.
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
      return NESTED_TOO_DEEP
    }
    if (entries > MAX_FRONTMATTER_ENTRIES) {
      return `YAML has more than ${MAX_FRONTMATTER_ENTRIES} lines and entries`
    }
  }
  return undefined
}

const lineAndColumn = (text: string, offset: number, firstLine: number): string => {
  let line = firstLine
  let lineStart = 0
  for (let index = text.indexOf("\n"); index !== -1 && index < offset; index = text.indexOf("\n", index + 1)) {
    line++
    lineStart = index + 1
  }
  return `line ${line}, column ${offset - lineStart + 1}`
}

const BLANK_OR_COMMENT = /^[ \t]*(?:#.*)?\r?$/
const isEmptyDocument = (text: string) => text.split("\n").every((line) => BLANK_OR_COMMENT.test(line))

interface Refusal {
  readonly offset: number
  readonly describe: (where: string) => string
}

/** The JavaScript property a scalar key becomes: a plain `~` and `null` are both "null", `0x1F` is "31". */
const propertyOf = (text: string, key: ScalarEvent): string => {
  const value = getScalarValue(text, key)
  if (key.style !== SCALAR_STYLE.PLAIN) return value
  try {
    return String(load(value, LOAD_OPTIONS))
  } catch {
    return value
  }
}

interface Frame {
  readonly mapping: boolean
  readonly keys: Set<string>
  expectingKey: boolean
}

/**
 * Walks the parser's events for the first alias, collection key or duplicate key, with its exact
 * offset: the parser's own error points at the enclosing mapping or just past an indicator.
 */
const findRefusal = (text: string): Refusal | undefined => {
  const frames: Array<Frame> = []
  const completeNode = () => {
    const parent = frames.at(-1)
    if (parent?.mapping === true) parent.expectingKey = !parent.expectingKey
  }
  for (const event of parseEvents(text, { maxDepth: MAX_FRONTMATTER_NESTING })) {
    const parent = frames.at(-1)
    const isKey = parent?.mapping === true && parent.expectingKey
    switch (event.type) {
      case EVENT_ID.ALIAS: {
        const name = text.slice(event.anchorStart, event.anchorEnd)
        return { offset: event.anchorStart - 1, describe: (where) => `YAML alias *${name} at ${where} refused: aliases are not allowed` }
      }
      case EVENT_ID.SEQUENCE:
      case EVENT_ID.MAPPING:
        if (isKey) return { offset: event.start, describe: (where) => `YAML mapping key at ${where} refused: keys must be scalars` }
        frames.push({ mapping: event.type === EVENT_ID.MAPPING, keys: new Set(), expectingKey: true })
        break
      case EVENT_ID.SCALAR:
        if (isKey) {
          const property = propertyOf(text, event)
          const quoted = event.style === SCALAR_STYLE.SINGLE_QUOTED || event.style === SCALAR_STYLE.DOUBLE_QUOTED
          // Two keys that become the same JavaScript property would silently overwrite each other.
          if (parent.keys.has(property)) {
            return { offset: quoted ? event.valueStart - 1 : event.valueStart, describe: (where) => `YAML duplicate key ${describeValue(property)} at ${where}` }
          }
          parent.keys.add(property)
        }
        completeNode()
        break
      case EVENT_ID.POP:
        frames.pop()
        completeNode()
        break
      case EVENT_ID.DOCUMENT:
        break
    }
  }
  return undefined
}

/** {@link findRefusal}, or nothing when the event stream cannot be read either: the reason is then the parser's own. */
const locateRefusal = (text: string): Refusal | undefined => {
  try {
    return findRefusal(text)
  } catch {
    return undefined
  }
}

const isRefusalReason = (reason: string) =>
  reason.startsWith("aliases exceeded") || reason === "duplicated mapping key" || reason.includes("complex keys")

/** The reason a document is refused, pointing into the SKILL.md rather than into the YAML text. */
const describeException = (error: YAMLException, text: string, firstLine: number): string => {
  if (error.reason.startsWith("nesting exceeded")) return `YAML refused: ${NESTED_TOO_DEEP}`
  if (isRefusalReason(error.reason)) {
    const refusal = locateRefusal(text)
    if (refusal !== undefined) return `invalid YAML: ${refusal.describe(lineAndColumn(text, refusal.offset, firstLine))}`
  }
  const mark = error.mark
  return mark === undefined
    ? `invalid YAML: ${error.reason}`
    : `invalid YAML: ${error.reason} at line ${firstLine + mark.line}, column ${mark.column + 1}`
}

interface PathFrame {
  readonly mapping: boolean
  expectingKey: boolean
  key: string
  index: number
}

/** A path into decoded frontmatter, as the key of {@link plainScalarSources}. */
export const pathKey = (path: ReadonlyArray<PropertyKey>): string => JSON.stringify(path.map((key) => (typeof key === "number" ? key : String(key))))

/**
 * The text the author wrote for each plain scalar value, by path: `version: 1.0` decodes to the
 * number 1, and this keeps `1.0`. Empty when the events cannot be read (the parse then fails with
 * its own reason anyway).
 */
export const plainScalarSources = (text: string): ReadonlyMap<string, string> => {
  const sources = new Map<string, string>()
  const frames: Array<PathFrame> = []
  const path = () => frames.map((frame) => (frame.mapping ? frame.key : frame.index))
  const completeNode = () => {
    const parent = frames.at(-1)
    if (parent === undefined) return
    if (parent.mapping) parent.expectingKey = true
    else parent.index++
  }
  try {
    for (const event of parseEvents(text, { maxDepth: MAX_FRONTMATTER_NESTING })) {
      const parent = frames.at(-1)
      switch (event.type) {
        case EVENT_ID.SCALAR:
          if (parent?.mapping === true && parent.expectingKey) {
            parent.key = propertyOf(text, event)
            parent.expectingKey = false
            break
          }
          // An empty plain scalar is a null the author did not spell out; it has no text to show.
          if (event.style === SCALAR_STYLE.PLAIN && event.valueEnd > event.valueStart) sources.set(pathKey(path()), getScalarValue(text, event))
          completeNode()
          break
        case EVENT_ID.SEQUENCE:
        case EVENT_ID.MAPPING:
          if (parent?.mapping === true && parent.expectingKey) return sources
          frames.push({ mapping: event.type === EVENT_ID.MAPPING, expectingKey: true, key: "", index: 0 })
          break
        case EVENT_ID.POP:
          frames.pop()
          completeNode()
          break
        case EVENT_ID.ALIAS:
          completeNode()
          break
        case EVENT_ID.DOCUMENT:
          break
      }
    }
  } catch {
    return sources
  }
  return sources
}

/**
 * Whether a {@link parseYaml} failure is text that is not YAML, as opposed to YAML refused on
 * purpose (an alias, a collection or duplicate key, a tag, a structure bound), which no lenient
 * reading may get around.
 */
export const isYamlSyntaxError = (reason: string): boolean =>
  reason.startsWith("invalid YAML:") && !/ refused: |duplicate key|unknown (?:scalar )?tag/u.test(reason)

/**
 * Parses frontmatter YAML into plain data, or fails with the reason it was refused. `firstLine` is
 * the file line the text starts on, so reasons point into the SKILL.md itself. Frontmatter with no
 * content (blank, or only comments) is `null`.
 */
export const parseYaml = (text: string, firstLine: number): Result.Result<unknown, string> => {
  const bound = exceedsStructureBounds(text)
  if (bound !== undefined) return Result.fail(`YAML refused: ${bound}`)
  try {
    return Result.succeed(load(text, LOAD_OPTIONS))
  } catch (error) {
    if (isEmptyDocument(text)) return Result.succeed(null)
    if (error instanceof YAMLException) return Result.fail(describeException(error, text, firstLine))
    // The parser documents that it may throw more than its own exception; a document never crashes the load.
    return Result.fail(`invalid YAML: ${error instanceof Error ? error.message : String(error)}`)
  }
}

/** A top-level `key: value` line whose plain value holds `": "` (`description: Usage: run it`). */
const PLAIN_VALUE_WITH_COLON = /^([A-Za-z0-9_-]+):[ \t]+([^\s"'|>[{&*!%@`#][^\n]*?: [^\n]*?)[ \t]*\r?$/gm

/**
 * The frontmatter with every top-level plain value that holds `": "` double-quoted, and the keys
 * it quoted; null when there is none. A value's trailing ` # comment` stays a comment. Authors
 * write `description: Usage: …` expecting a string, and the Agent Skills client guide recommends
 * retrying such a value as a quoted scalar.
 */
export const quotePlainValuesWithColons = (text: string): { readonly text: string; readonly keys: ReadonlyArray<string> } | null => {
  const keys: Array<string> = []
  const quoted = text.replace(PLAIN_VALUE_WITH_COLON, (_line, key: string, value: string) => {
    const comment = value.search(/[ \t]#/)
    const scalar = comment === -1 ? value : value.slice(0, comment).trimEnd()
    keys.push(key)
    return `${key}: ${JSON.stringify(scalar)}${comment === -1 ? "" : value.slice(comment)}`
  })
  return keys.length === 0 ? null : { text: quoted, keys }
}
