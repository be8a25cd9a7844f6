import type { Armable, Armed } from "./Armable.js"
import type { ArmingIndex } from "./ArmingIndex.js"
import type { FileEdit } from "./Edit.js"
import { armedFrom } from "./internal/ArmedFrom.js"
import { pathsInPlay, PreparedEdit } from "./internal/EditMatch.js"
import { normalizeKeyword, PromptText } from "./Keyword.js"
import { compilePathGlob } from "./PathGlob.js"
import { requestSpans, withinRequest } from "./Request.js"
import { compileUrlGlob, normalizeUrl } from "./UrlGlob.js"

export interface Input {
  /** The skills to consider, or an index from `compileSkills` (the fast path for repeated calls). */
  readonly skills: ReadonlyArray<Armable> | ArmingIndex
  readonly prompt: string
  /** The page the agent is on, if any. */
  readonly url?: string | undefined
  /** Repo-relative POSIX paths of the files in play, e.g. the file a post-edit hook reports. */
  readonly paths?: ReadonlyArray<string> | undefined
  /** What the edits that just happened changed, for skills that arm on a condition of an edit (their paths count as paths in play). */
  readonly edits?: ReadonlyArray<FileEdit> | undefined
}

/** Remembers one answer per distinct pattern within a single call. */
const memo = <T>(compute: (key: string) => T): ((key: string) => T) => {
  const answers = new Map<string, T>()
  return (key) => {
    let answer = answers.get(key)
    if (answer === undefined) {
      answer = compute(key)
      answers.set(key, answer)
    }
    return answer
  }
}

/** One pass over the skills without building an index: cheapest for a one-off decision. */
const armDirectly = (skills: ReadonlyArray<Armable>, input: Input): ReadonlyArray<Armed> => {
  const prompt = new PromptText(input.prompt)
  const subject = input.url === undefined ? undefined : normalizeUrl(input.url)
  const filePaths = pathsInPlay(input)
  const edits = (input.edits ?? []).map((edit) => new PreparedEdit(edit))
  const keywordMatches = memo((keyword) => prompt.contains(normalizeKeyword(keyword)))
  let spans: ReturnType<typeof requestSpans> | undefined
  const requestedMatches = memo((keyword) => {
    spans ??= requestSpans(prompt.text)
    const within = spans
    return prompt.contains(normalizeKeyword(keyword), (start, end) => withinRequest(within, start, end))
  })
  const urlMatches = memo((glob) => subject !== undefined && compileUrlGlob(glob).matches(subject))
  const compiledPath = memo(compilePathGlob)
  const pathMatches = memo((glob) => filePaths.some((path) => compiledPath(glob).matches(path)))
  const armed: Array<Armed> = []
  for (const skill of skills) {
    const block = skill.autoInject
    const result = armedFrom(skill, {
      keyword: (index, requested) => (requested ? requestedMatches : keywordMatches)(block?.keywords?.[index] ?? ""),
      unless: (index) => keywordMatches(block?.unless?.[index] ?? ""),
      url: (index) => urlMatches(block?.url?.[index] ?? ""),
      path: (index) => pathMatches(block?.paths?.[index] ?? ""),
      pathMatches: (index, path) => compiledPath(block?.paths?.[index] ?? "").matches(path),
      edits
    })
    if (result !== undefined) armed.push(result)
  }
  return armed
}

/**
 * Which skills arm for a prompt (and optionally a URL and file paths), in input order, each with
 * the keywords, URL globs and path globs that matched, as declared. Pure: reads, caches and logs
 * nothing. A skill without `autoInject`, or with only empty lists, never arms. A skill's keywords
 * count only inside a request when it sets `requested`, and not at all when one of its `unless`
 * patterns is in the prompt. A skill with an `edits` condition arms on an edit only when the edit
 * changed what it names (a comment, a pattern in an added line), with the lines that did in `edits`.
 */
export const arm = (input: Input): ReadonlyArray<Armed> =>
  isIndex(input.skills) ? input.skills.arm(input.prompt, input.url, input.paths, input.edits) : armDirectly(input.skills, input)

const isIndex = (skills: Input["skills"]): skills is ArmingIndex => !Array.isArray(skills)

/** The names of the skills `arm` would return, in the same order. */
export const armedNames = (input: Input): ReadonlyArray<string> => arm(input).map((armed) => armed.name)
