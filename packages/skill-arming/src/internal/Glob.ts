/**
 * The glob dialect shared by URL and path globs, compiled by hand because general-purpose glob
 * libraries give `( { [` and dot segments meanings of their own: `*` and `?` stay within one
 * `/`-separated segment, `**` crosses segments (as a whole segment it also matches zero of them:
 * `a/**` matches `a`, `a/**\/b` matches `a/b`), and every other character is literal.
 */

const REGEXP_SPECIAL = new Set("\\^$.|+()[]{}*?")

const escapeLiteral = (char: string): string => (REGEXP_SPECIAL.has(char) ? `\\${char}` : char)

/** The body of an anchored regular expression for one glob (no braces). */
export const globToRegExpSource = (glob: string): string => {
  let source = ""
  let index = 0
  while (index < glob.length) {
    const char = glob[index]
    if (char === "*") {
      let end = index
      while (glob[end] === "*") end++
      if (end - index === 1) {
        source += "[^/]*"
        index = end
        continue
      }
      const startsSegment = index === 0 || glob[index - 1] === "/"
      const endsSegment = end === glob.length || glob[end] === "/"
      if (startsSegment && endsSegment && end < glob.length) {
        // `**/` (leading or between slashes): zero or more whole segments.
        source += "(?:.*/)?"
        index = end + 1
      } else if (startsSegment && endsSegment && index > 0) {
        // trailing `/**`: the slash itself becomes optional so `a/**` matches `a`.
        source = `${source.slice(0, -1)}(?:/.*)?`
        index = end
      } else {
        source += ".*"
        index = end
      }
      continue
    }
    source += char === "?" ? "[^/]" : escapeLiteral(char ?? "")
    index++
  }
  return source
}

/**
 * Expands `{a,b}` alternatives (nested allowed) into plain globs. A `{` without a matching `}` or
 * without a top-level comma is literal. Returns undefined when the expansion would exceed `limit`.
 */
export const expandBraces = (glob: string, limit: number): ReadonlyArray<string> | undefined => {
  const open = findExpandableBrace(glob)
  if (open === undefined) return [glob]
  const { start, end, alternatives } = open
  const prefix = glob.slice(0, start)
  const suffix = glob.slice(end + 1)
  const expanded: Array<string> = []
  for (const alternative of alternatives) {
    const rest = expandBraces(`${prefix}${alternative}${suffix}`, limit - expanded.length)
    if (rest === undefined) return undefined
    expanded.push(...rest)
    if (expanded.length > limit) return undefined
  }
  return expanded
}

interface BraceGroup {
  readonly start: number
  readonly end: number
  readonly alternatives: ReadonlyArray<string>
}

const findExpandableBrace = (glob: string): BraceGroup | undefined => {
  for (let start = glob.indexOf("{"); start !== -1; start = glob.indexOf("{", start + 1)) {
    let depth = 0
    let segmentStart = start + 1
    const alternatives: Array<string> = []
    for (let index = start; index < glob.length; index++) {
      const char = glob[index]
      if (char === "{") depth++
      else if (char === "}") {
        depth--
        if (depth === 0) {
          if (alternatives.length === 0) break
          alternatives.push(glob.slice(segmentStart, index))
          return { start, end: index, alternatives }
        }
      } else if (char === "," && depth === 1) {
        alternatives.push(glob.slice(segmentStart, index))
        segmentStart = index + 1
      }
    }
  }
  return undefined
}
