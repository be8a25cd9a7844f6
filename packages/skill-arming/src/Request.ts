/**
 * Request phrasing: where a prompt asks for something to be done, as opposed to mentioning it. A
 * skill whose `autoInject.requested` is set arms on a keyword only inside a request, so "open the
 * browser" arms a browser skill and "I read an article about browser history" does not.
 *
 * A request runs from its cue to the end of the sentence: a polite or modal phrase ("can you",
 * "please", "help me"), or an imperative verb opening the sentence ("open …", "check …"). In Korean,
 * Japanese and Chinese, where the request is marked at the end of the sentence or by a particle, a
 * sentence carrying such a mark is a request as a whole. Works on text normalised as keywords are
 * (NFKC, lower case, whitespace collapsed).
 */

/** Sentence ends (a dot only before a space or the end: `example.com` is one word): a request never carries over into the next sentence. */
const SENTENCE_END = /[.!?;](?=\s|$)|[\n。！？；]/gu

/** Phrases that make what follows them in the sentence a request, wherever they stand. */
const CUE_PHRASES = [
  "can you",
  "could you",
  "would you",
  "will you",
  "can u",
  "please",
  "pls",
  "i want you to",
  "i need you to",
  "i'd like you to",
  "i would like you to",
  "help me",
  "let's",
  "lets",
  "go ahead and",
  "make sure to",
  "try to"
]

/** Verbs of things an agent does, which open a sentence as an imperative. */
const IMPERATIVE_VERBS = [
  "open",
  "go",
  "navigate",
  "visit",
  "browse",
  "click",
  "press",
  "tap",
  "type",
  "enter",
  "fill",
  "log",
  "sign",
  "submit",
  "search",
  "find",
  "look",
  "check",
  "take",
  "grab",
  "download",
  "upload",
  "book",
  "buy",
  "order",
  "scrape",
  "read",
  "fetch",
  "get",
  "show",
  "use",
  "run",
  "test",
  "verify",
  "compare",
  "summarize",
  "summarise",
  "extract",
  "copy",
  "save",
  "close",
  "refresh",
  "reload",
  "scroll",
  "screenshot",
  "capture",
  "automate",
  "drive",
  "merge",
  "split",
  "convert",
  "fix",
  "add",
  "create",
  "make",
  "write",
  "edit",
  "update",
  "delete",
  "remove"
]

/** Words that may stand before an imperative at a sentence's start without making it a statement. */
const LEAD_INS = ["ok", "okay", "now", "then", "and", "also", "first", "next", "so", "just", "quickly", "hey"]

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

const CUE_PHRASE = new RegExp(`(?<![\\p{L}\\p{N}_])(?:${CUE_PHRASES.map(escape).join("|")})(?![\\p{L}\\p{N}_])`, "gu")
const OPENING_IMPERATIVE = new RegExp(
  `^[\\s,:'"(\\[-]*(?:(?:${LEAD_INS.join("|")})[\\s,]+)*(?:${IMPERATIVE_VERBS.join("|")})(?![\\p{L}\\p{N}_])`,
  "u"
)
/** Request marks of scripts that mark a request at the end of a sentence or with a particle. */
const SENTENCE_REQUEST_MARK = /해\s?줘|해\s?주세요|해\s?주라|주세요|줘(?=$|[\s.!?~])|하자|해봐|해\s?봐|하세요|してください|して(?=$|[\s。！？])|ください|てくれ|请|帮我|帮忙|给我|麻烦/u

/** The `[start, end)` spans of normalised text that are requests, in order. */
export const requestSpans = (text: string): ReadonlyArray<readonly [number, number]> => {
  const spans: Array<readonly [number, number]> = []
  let start = 0
  const ends = [...text.matchAll(SENTENCE_END)].map((match) => match.index + match[0].length)
  for (const end of [...ends, text.length]) {
    if (end <= start) continue
    const sentence = text.slice(start, end)
    if (SENTENCE_REQUEST_MARK.test(sentence) || OPENING_IMPERATIVE.test(sentence)) spans.push([start, end])
    else {
      CUE_PHRASE.lastIndex = 0
      const cue = CUE_PHRASE.exec(sentence)
      if (cue !== null) spans.push([start + cue.index, end])
    }
    start = end
  }
  return spans
}

/** Whether the occurrence at `[start, end)` lies inside one of the request spans. */
export const withinRequest = (spans: ReadonlyArray<readonly [number, number]>, start: number, end: number): boolean =>
  spans.some(([from, to]) => start >= from && end <= to)
