import type { Armable, Armed } from "../Armable.js"

/** The per-skill decision both matching paths share: filter each declared list by "did it match". */
export const armedFrom = (
  skill: Armable,
  keywordMatched: (index: number) => boolean,
  urlMatched: (index: number) => boolean,
  pathMatched: (index: number) => boolean
): Armed | undefined => {
  const block = skill.autoInject
  if (block === undefined) return undefined
  const keywords = (block.keywords ?? []).filter((_, index) => keywordMatched(index))
  const urls = (block.url ?? []).filter((_, index) => urlMatched(index))
  const paths = (block.paths ?? []).filter((_, index) => pathMatched(index))
  return keywords.length + urls.length + paths.length === 0 ? undefined : { name: skill.name, keywords, urls, paths }
}
