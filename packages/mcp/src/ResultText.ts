/**
 * The text part of a tool's answer, for a client that passes the model only text: the JSON of the
 * whole answer when it fits, else a marked summary of it that is JSON too — never text cut inside
 * a value, which no longer parses and hides where the rest went.
 */

/** The most characters a text part takes (about 10,000 tokens): within what hosts pass a model from one call. */
export const MAX_RESULT_TEXT_CHARS = 40_000

interface Shrinking {
  /** The most items of a list, and keys of an object, kept at each level. */
  readonly items: number
  /** The most characters of a text kept. */
  readonly chars: number
}

/** Ever smaller cuts, tried in turn until the summary fits; the last always does. */
const SHRINKINGS: ReadonlyArray<Shrinking> = [
  { items: 500, chars: 4_000 },
  { items: 200, chars: 1_000 },
  { items: 50, chars: 300 },
  { items: 20, chars: 120 },
  { items: 5, chars: 60 },
  { items: 1, chars: 20 },
  { items: 0, chars: 0 }
]

/** Below this depth a value is only named by its kind. */
const MAX_DEPTH = 12

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> => typeof value === "object" && value !== null && !Array.isArray(value)

const shrink = (value: unknown, cut: Shrinking, depth: number): unknown => {
  if (typeof value === "string") return value.length <= cut.chars ? value : `${value.slice(0, cut.chars)}… (${value.length - cut.chars} more characters)`
  if (Array.isArray(value)) {
    if (depth >= MAX_DEPTH) return `… (a list of ${value.length} items)`
    const kept = value.slice(0, cut.items).map((item: unknown) => shrink(item, cut, depth + 1))
    return value.length > cut.items ? [...kept, `… (${value.length - cut.items} more items)`] : kept
  }
  if (isRecord(value)) {
    const entries = Object.entries(value)
    if (depth >= MAX_DEPTH) return `… (an object of ${entries.length} keys)`
    const kept = entries.slice(0, Math.max(cut.items, 1)).map(([key, item]) => [key, shrink(item, cut, depth + 1)] as const)
    return Object.fromEntries(entries.length > kept.length ? [...kept, ["…", `${entries.length - kept.length} more keys`]] : kept)
  }
  return value
}

/** The JSON of `value`, or undefined when it nests too deep for the writer's stack. */
const wholeJson = (value: unknown): string | undefined => {
  try {
    return JSON.stringify(value) ?? "null"
  } catch (error) {
    if (error instanceof RangeError) return undefined
    throw error
  }
}

/**
 * `value` as JSON within `maxChars`: whole when it fits, else `{ "_truncated": …, "summary": … }`
 * with every list and text cut at the first size that fits, each cut marked with what it left out.
 */
export const resultText = (value: unknown, maxChars: number = MAX_RESULT_TEXT_CHARS): string => {
  const whole = wholeJson(value)
  if (whole !== undefined && whole.length <= maxChars) return whole
  const size = whole === undefined ? "an answer nested too deep to write out whole" : `a ${whole.length}-character answer`
  const note = `a summary of ${size}: lists, objects and texts are cut where marked with …; the structured content holds the whole answer`
  for (const cut of SHRINKINGS) {
    const summary = JSON.stringify({ _truncated: note, summary: shrink(value, cut, 0) })
    if (summary.length <= maxChars) return summary
  }
  return JSON.stringify({ _truncated: note })
}
