/**
 * Suggestions: which skills a prompt is about, ranked by lexical relevance (BM25) over each
 * skill's name and description. Separate from arming: a suggestion arms nothing, and a host decides
 * whether to mention it. The index is built once per skill set; a query costs only the postings of
 * the prompt's own terms.
 */
import { stemmer } from "stemmer"
import { normalizeText } from "./Keyword.js"

/** What a skill offers for ranking: its name and the description a model reads. */
export interface Suggestable {
  readonly name: string
  readonly description: string
}

export interface Suggestion {
  readonly name: string
  /** BM25 relevance: comparable within one query only; above 0 means at least one term matched. */
  readonly score: number
  /** The prompt's words that matched, as the prompt wrote them (normalised), strongest first. */
  readonly terms: ReadonlyArray<string>
}

/** A skill set compiled for {@link suggest}; build it with {@link compileSuggestions} once per set. */
export interface SuggestionIndex {
  readonly _tag: "SuggestionIndex"
  readonly names: ReadonlyArray<string>
  readonly postings: ReadonlyMap<string, ReadonlyArray<Posting>>
  readonly lengths: Float64Array
  readonly averageLength: number
}

interface Posting {
  readonly document: number
  readonly frequency: number
}

export interface SuggestInput {
  readonly skills: ReadonlyArray<Suggestable> | SuggestionIndex
  readonly prompt: string
  /** The most suggestions returned, best first (default 3). */
  readonly limit?: number | undefined
  /**
   * How much a skill must match to be suggested, in units of one word that only one skill holds
   * (default {@link DEFAULT_MIN_EVIDENCE}; 0 suggests every skill any word matched). Applies to sets
   * of at least {@link MIN_SKILLS_FOR_EVIDENCE_FLOOR} skills.
   */
  readonly minEvidence?: number | undefined
}

/** BM25's usual constants: term-frequency saturation and length normalisation. */
const K1 = 1.2
const B = 0.75
/** A name says what a skill is more than any word of its description does. */
const NAME_WEIGHT = 3
/**
 * The most of a prompt read: all of any prompt a person writes or pastes. Each word costs one
 * lookup, and only words the skills hold are kept, so a long paste is read to its end (where the
 * question usually is) at a cost linear in its length.
 */
export const MAX_SUGGEST_PROMPT_CHARS = 4 * 1024 * 1024
const MAX_LIMIT = 100

/**
 * The least a suggestion must score, in units of the score one word held by a single skill gives:
 * a prompt without a fitting skill ("what's next?", "how many tests are there in this repo?") matches
 * a word or two that many skills share, or one generic word of a skill's name, and scores below it;
 * a prompt about a skill matches its rare words or several of its words. Measured on the labelled
 * prompts of the skill-loader's suggestion benchmark.
 */
export const DEFAULT_MIN_EVIDENCE = 1.4

/**
 * The fewest skills the evidence floor applies to: in a smaller set a word two skills share is
 * already rare, and BM25's scores are too coarse to tell a weak match from a strong one.
 */
export const MIN_SKILLS_FOR_EVIDENCE_FLOOR = 50

/** Words that say nothing about what a task is. */
const STOP_WORDS = new Set(
  ("a an and are as at be but by can do does for from has have how i if in into is it its me my of on or our please " +
    "so than that the their them then there these this to use used uses using was we what when where which while who " +
    "will with you your can't don't i'm it's let's want need make get like just also any all some " +
    // What is left of a contraction, and words of conversation that name no task.
    "let don doesn didn isn won wouldn shouldn now why own think go ok okay thanks thank yes no right")
    .split(" ")
)

/** Scripts written without spaces between words: they are indexed as overlapping character pairs. */
const UNSPACED_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u
// `_` and `-` separate words: `google_maps-automation` is about Google Maps.
const WORD = /[\p{L}\p{M}\p{N}]+/gu
// English contractions: `what's` is the word `what`, not also a word `s`.
const CONTRACTION = /['\u2019](?:s|t|re|ll|d|ve|m)(?![\p{L}\p{N}])/gu
const UNSPACED_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]+/gu
const SPACED_PART = /[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]+/gu
const LATIN_WORD = /^[a-z]+$/

/** A term and the word of the text it came from. */
interface Token {
  readonly term: string
  readonly word: string
}

const termsOfWord = (word: string, into: Array<Token>): void => {
  if (!UNSPACED_SCRIPT.test(word)) {
    if (STOP_WORDS.has(word)) return
    // English inflections (`pdfs`, `testing`) meet their stem; other words are compared as written.
    into.push({ term: LATIN_WORD.test(word) && word.length > 3 ? stemmer(word) : word, word })
    return
  }
  for (const run of word.match(UNSPACED_RUN) ?? []) {
    const characters = Array.from(run)
    if (characters.length === 1) into.push({ term: run, word: run })
    for (let index = 0; index + 1 < characters.length; index++) {
      const pair = `${characters[index]}${characters[index + 1]}`
      into.push({ term: pair, word: pair })
    }
  }
  // Latin letters or digits glued to such a run (`PDFを`) are a word of their own.
  for (const part of word.match(SPACED_PART) ?? []) termsOfWord(part, into)
}

/** The terms of a text, in order: NFKC-normalised and lowercased like the keyword matcher. */
function* tokenize(text: string): Generator<Token> {
  for (const [word] of normalizeText(text).replace(CONTRACTION, "").matchAll(WORD)) {
    const tokens: Array<Token> = []
    termsOfWord(word, tokens)
    yield* tokens
  }
}

/** Builds the index {@link suggest} ranks against; the skills' order breaks ties. */
export const compileSuggestions = (skills: ReadonlyArray<Suggestable>): SuggestionIndex => {
  const postings = new Map<string, Array<Posting>>()
  const lengths = new Float64Array(skills.length)
  skills.forEach((skill, document) => {
    const frequencies = new Map<string, number>()
    const nameTerms = [...tokenize(skill.name)]
    const descriptionTerms = [...tokenize(skill.description)]
    for (const { term } of nameTerms) frequencies.set(term, (frequencies.get(term) ?? 0) + NAME_WEIGHT)
    for (const { term } of descriptionTerms) frequencies.set(term, (frequencies.get(term) ?? 0) + 1)
    lengths[document] = nameTerms.length * NAME_WEIGHT + descriptionTerms.length
    for (const [term, frequency] of frequencies) {
      const list = postings.get(term)
      if (list === undefined) postings.set(term, [{ document, frequency }])
      else list.push({ document, frequency })
    }
  })
  const total = lengths.reduce((sum, length) => sum + length, 0)
  return {
    _tag: "SuggestionIndex",
    names: skills.map(({ name }) => name),
    postings,
    lengths,
    averageLength: skills.length === 0 ? 0 : total / skills.length
  }
}

const isIndex = (skills: SuggestInput["skills"]): skills is SuggestionIndex =>
  (skills as SuggestionIndex)._tag === "SuggestionIndex"

/**
 * The skills a prompt is most about, best first, each with its BM25 score and the prompt words that
 * matched; skills no term of the prompt matches, or that match too little (`minEvidence`), are never
 * returned, so a prompt no skill fits gets nothing. Arms nothing: a skill without
 * `autoInject` still never auto-arms. The whole prompt is read (up to 4 Mi characters), one lookup
 * per word.
 */
export const suggest = (input: SuggestInput): ReadonlyArray<Suggestion> => {
  const index = isIndex(input.skills) ? input.skills : compileSuggestions(input.skills)
  const limit = Math.min(MAX_LIMIT, Math.max(0, Math.floor(input.limit ?? 3)))
  const documents = index.names.length
  if (limit === 0 || documents === 0) return []
  // Only terms some skill holds can score: the query never grows past the index's vocabulary.
  const query = new Map<string, string>()
  for (const { term, word } of tokenize(input.prompt.slice(0, MAX_SUGGEST_PROMPT_CHARS))) {
    if (!query.has(term) && index.postings.has(term)) query.set(term, word)
  }
  const floor = documents < MIN_SKILLS_FOR_EVIDENCE_FLOOR ? 0 : Math.max(0, input.minEvidence ?? DEFAULT_MIN_EVIDENCE) * Math.log(1 + (documents - 0.5) / 1.5)
  const scores = new Float64Array(documents)
  const matched = new Map<number, Array<{ readonly word: string; readonly weight: number }>>()
  for (const [term, word] of query) {
    const postings = index.postings.get(term)
    if (postings === undefined) continue
    const idf = Math.log(1 + (documents - postings.length + 0.5) / (postings.length + 0.5))
    for (const { document, frequency } of postings) {
      const norm = K1 * (1 - B + (B * (index.lengths[document] as number)) / index.averageLength)
      const weight = (idf * frequency * (K1 + 1)) / (frequency + norm)
      scores[document] = (scores[document] as number) + weight
      const terms = matched.get(document)
      if (terms === undefined) matched.set(document, [{ word, weight }])
      else terms.push({ word, weight })
    }
  }
  // The best `limit` by score, earlier skills first on a tie, without sorting every match.
  const ranked: Array<number> = []
  const before = (a: number, b: number) => (scores[a] as number) > (scores[b] as number) || ((scores[a] as number) === (scores[b] as number) && a < b)
  for (const document of matched.keys()) {
    if ((scores[document] as number) < floor) continue
    if (ranked.length === limit && !before(document, ranked[limit - 1] as number)) continue
    let position = ranked.length === limit ? limit - 1 : ranked.length
    while (position > 0 && before(document, ranked[position - 1] as number)) position--
    ranked.splice(position, 0, document)
    if (ranked.length > limit) ranked.pop()
  }
  return ranked.map((document) => ({
    name: index.names[document] as string,
    score: scores[document] as number,
    terms: (matched.get(document) ?? []).toSorted((a, b) => b.weight - a.weight).map(({ word }) => word)
  }))
}
