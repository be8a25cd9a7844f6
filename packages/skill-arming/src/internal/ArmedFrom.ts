import type { Armable, Armed } from "../Armable.js"
import { editEvidence, type PreparedEdit } from "./EditMatch.js"

/** What one arming call found in its input, asked per declared pattern by its index in the skill's lists. */
export interface Matches {
  /** Whether a keyword is in the prompt; with `requested`, inside a request. */
  readonly keyword: (index: number, requested: boolean) => boolean
  /** Whether an `unless` pattern is in the prompt, which silences the keywords. */
  readonly unless: (index: number) => boolean
  readonly url: (index: number) => boolean
  /** Whether a path glob matches a path in play (the input's paths and the edited files). */
  readonly path: (index: number) => boolean
  /** Whether a path glob matches this one path. */
  readonly pathMatches: (index: number, path: string) => boolean
  readonly edits: ReadonlyArray<PreparedEdit>
}

/**
 * The per-skill decision both matching paths share: filter each declared list by "did it match".
 * A skill with an edit condition arms on its paths only through an edit that meets the condition.
 */
export const armedFrom = (skill: Armable, matches: Matches): Armed | undefined => {
  const block = skill.autoInject
  if (block === undefined) return undefined
  const silenced = (block.unless ?? []).some((_, index) => matches.unless(index))
  const keywords = silenced ? [] : (block.keywords ?? []).filter((_, index) => matches.keyword(index, block.requested === true))
  const urls = (block.url ?? []).filter((_, index) => matches.url(index))
  const byEdit =
    block.edits === undefined
      ? { paths: (block.paths ?? []).filter((_, index) => matches.path(index)), edits: [] }
      : editEvidence(block.edits, block.paths, matches.edits, matches.pathMatches)
  const armedCount = keywords.length + urls.length + byEdit.paths.length + byEdit.edits.length
  return armedCount === 0 ? undefined : { name: skill.name, keywords, urls, paths: byEdit.paths, edits: byEdit.edits }
}
