const MAX_VALUE_CHARS = 80

// Characters that would break a one-line log entry or reorder what a terminal shows.
const isUnprintable = (code: number): boolean =>
  code <= 0x1f ||
  (code >= 0x7f && code <= 0x9f) ||
  code === 0x61c ||
  code === 0x200e ||
  code === 0x200f ||
  code === 0x2028 ||
  code === 0x2029 ||
  (code >= 0x202a && code <= 0x202e) ||
  (code >= 0x2066 && code <= 0x2069)

/** Escapes control, line-breaking and bidirectional characters so untrusted text stays on one visible line. */
export const printable = (text: string): string => {
  let escaped = ""
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    escaped += isUnprintable(code) ? `\\u${code.toString(16).padStart(4, "0")}` : text[index]
  }
  return escaped
}

const truncate = (text: string): string =>
  text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS)}…` : text

/** A short, one-line rendering of a decoded YAML value for a reason: `"yes please"`, `1`, `["a",1]`. */
export const describeValue = (value: unknown): string => {
  if (value === undefined) return "undefined"
  if (typeof value === "string") return printable(JSON.stringify(truncate(value)))
  return printable(truncate(JSON.stringify(value)))
}

/** `["autoInject"]["keywords"][0]`: the notation Effect's own issue formatter uses. */
export const formatPath = (path: ReadonlyArray<PropertyKey>): string =>
  path.map((key) => (typeof key === "number" ? `[${key}]` : `[${printable(JSON.stringify(String(key)))}]`)).join("")

/** Characters as a reader counts them (code points), not UTF-16 units: an emoji is one. */
export const characterCount = (text: string): number => {
  let count = 0
  for (const _ of text) count++
  return count
}

let graphemes: Intl.Segmenter | undefined

/**
 * The longest start of `text` of at most `limit` characters (code points) that ends between
 * graphemes: an accented letter, a flag or an emoji sequence is kept whole or left out whole.
 */
export const graphemePrefix = (text: string, limit: number): string => {
  if (characterCount(text) <= limit) return text
  graphemes ??= new Intl.Segmenter(undefined, { granularity: "grapheme" })
  let kept = ""
  let used = 0
  for (const { segment } of graphemes.segment(text)) {
    const size = characterCount(segment)
    if (used + size > limit) break
    kept += segment
    used += size
  }
  return kept
}
