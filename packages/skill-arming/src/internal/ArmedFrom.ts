import type { Armable, Armed } from "../Armable.js"

/**
 * The per-skill decision both matching paths share: filter each declared list by "did it match".
 * `keywordMatched(index, requested)` answers for any occurrence, or with `requested` for one inside a
 * request; `unlessMatched(index)` whether an `unless` pattern is in the prompt, which silences the keywords.
 */
export const armedFrom = (
  skill: Armable,
  keywordMatched: (index: number, requested: boolean) => boolean,
  unlessMatched: (index: number) => boolean,
  urlMatched: (index: number) => boolean,
  pathMatched: (index: number) => boolean
): Armed | undefined => {
  const block = skill.autoInject
  if (block === undefined) return undefined
  const silenced = (block.unless ?? []).some((_, index) => unlessMatched(index))
  const keywords = silenced ? [] : (block.keywords ?? []).filter((_, index) => keywordMatched(index, block.requested === true))
  const urls = (block.url ?? []).filter((_, index) => urlMatched(index))
  const paths = (block.paths ?? []).filter((_, index) => pathMatched(index))
  return keywords.length + urls.length + paths.length === 0 ? undefined : { name: skill.name, keywords, urls, paths }
}
