import type { Armable, Armed } from "./Armable.js"
import { armedFrom } from "./internal/ArmedFrom.js"
import type { ArmingIndex } from "./ArmingIndex.js"
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
  const filePaths = input.paths ?? []
  const keywordMatches = memo((keyword) => prompt.contains(normalizeKeyword(keyword)))
  let spans: ReturnType<typeof requestSpans> | undefined
  const requestedMatches = memo((keyword) => {
    spans ??= requestSpans(prompt.text)
    const within = spans
    return prompt.contains(normalizeKeyword(keyword), (start, end) => withinRequest(within, start, end))
  })
  const urlMatches = memo((glob) => subject !== undefined && compileUrlGlob(glob).matches(subject))
  const pathMatches = memo((glob) => {
    const compiled = compilePathGlob(glob)
    return filePaths.some((path) => compiled.matches(path))
  })
  const armed: Array<Armed> = []
  for (const skill of skills) {
    const block = skill.autoInject
    const result = armedFrom(
      skill,
      (index, requested) => (requested ? requestedMatches : keywordMatches)(block?.keywords?.[index] ?? ""),
      (index) => keywordMatches(block?.unless?.[index] ?? ""),
      (index) => urlMatches(block?.url?.[index] ?? ""),
      (index) => pathMatches(block?.paths?.[index] ?? "")
    )
    if (result !== undefined) armed.push(result)
  }
  return armed
}

/**
 * Which skills arm for a prompt (and optionally a URL and file paths), in input order, each with
 * the keywords, URL globs and path globs that matched, as declared. Pure: reads, caches and logs
 * nothing. A skill without `autoInject`, or with only empty lists, never arms. A skill's keywords
 * count only inside a request when it sets `requested`, and not at all when one of its `unless`
 * patterns is in the prompt.
 */
export const arm = (input: Input): ReadonlyArray<Armed> =>
  isIndex(input.skills) ? input.skills.arm(input.prompt, input.url, input.paths) : armDirectly(input.skills, input)

const isIndex = (skills: Input["skills"]): skills is ArmingIndex => !Array.isArray(skills)

/** The names of the skills `arm` would return, in the same order. */
export const armedNames = (input: Input): ReadonlyArray<string> => arm(input).map((armed) => armed.name)
