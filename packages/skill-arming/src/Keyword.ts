/**
 * Keyword matching: case-insensitive, NFKC-normalised, whitespace-collapsed, with word boundaries
 * checked per side and only for space-delimited scripts, so `ai` stays out of `said` while
 * `AI로`, `PDFを` and `요약해줘` still match `ai`, `pdf` and `요약`.
 */

/** Letters of the scripts that separate words with spaces, plus digits and `_`. */
const SPACE_DELIMITED_WORD_CHAR = /^[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Nd}_]$/u
const WHITESPACE_RUN = /\s+/gu
const ASCII_ONLY = /^\p{ASCII}*$/u

/** The form both a keyword and a prompt are compared in. */
export const normalizeText = (text: string): string =>
  text.normalize("NFKC").toLowerCase().replace(WHITESPACE_RUN, " ")

/** A keyword as it is matched; an empty result never matches. */
export const normalizeKeyword = (keyword: string): string => normalizeText(keyword).trim()

const isWordChar = (char: string | undefined): boolean =>
  char !== undefined && SPACE_DELIMITED_WORD_CHAR.test(char)

const codePointBefore = (text: string, index: number): string | undefined => {
  if (index <= 0) return undefined
  const low = text.charCodeAt(index - 1)
  const start = low >= 0xdc00 && low <= 0xdfff && index >= 2 ? index - 2 : index - 1
  return String.fromCodePoint(text.codePointAt(start) ?? 0)
}

const codePointAt = (text: string, index: number): string | undefined => {
  const codePoint = text.codePointAt(index)
  return codePoint === undefined ? undefined : String.fromCodePoint(codePoint)
}

/** The edge checks a normalised keyword needs: one per side whose edge is a word character. */
export interface KeywordEdges {
  readonly checkStart: boolean
  readonly checkEnd: boolean
}

export const keywordEdges = (keyword: string): KeywordEdges => ({
  checkStart: isWordChar(codePointAt(keyword, 0)),
  checkEnd: isWordChar(codePointBefore(keyword, keyword.length))
})

/** Whether an occurrence of a keyword at `[start, end)` of the normalised text stands on its own. */
export const hasWordBoundaries = (text: string, start: number, end: number, edges: KeywordEdges): boolean =>
  (!edges.checkStart || !isWordChar(codePointBefore(text, start))) &&
  (!edges.checkEnd || !isWordChar(codePointAt(text, end)))

const graphemeBoundaries = (text: string): Uint8Array => {
  const boundaries = new Uint8Array(text.length + 1)
  for (const segment of new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(text)) {
    boundaries[segment.index] = 1
  }
  boundaries[text.length] = 1
  return boundaries
}

/**
 * A normalised prompt with the grapheme-cluster boundaries a match must start and end on, so a
 * keyword never matches part of a cluster (`e` inside `e\u0301`). ASCII text needs no segmenter:
 * every position is a boundary once whitespace (and with it `\r\n`) is collapsed.
 */
export class PromptText {
  readonly text: string
  readonly #ascii: boolean
  #boundaries: Uint8Array | undefined

  constructor(prompt: string) {
    this.text = normalizeText(prompt)
    this.#ascii = ASCII_ONLY.test(this.text)
  }

  isBoundary(index: number): boolean {
    if (this.#ascii) return true
    this.#boundaries ??= graphemeBoundaries(this.text)
    return this.#boundaries[index] === 1
  }

  /** Direct search for one keyword: every occurrence until one stands on its own (and, given `where`, lies where it says). */
  contains(keyword: string, where?: (start: number, end: number) => boolean): boolean {
    if (keyword === "") return false
    const edges = keywordEdges(keyword)
    for (let start = this.text.indexOf(keyword); start !== -1; start = this.text.indexOf(keyword, start + 1)) {
      const end = start + keyword.length
      if (this.isBoundary(start) && this.isBoundary(end) && hasWordBoundaries(this.text, start, end, edges) && (where === undefined || where(start, end))) return true
    }
    return false
  }
}
