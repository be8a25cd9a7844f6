import type { EditCondition, EditEvidence } from "../Armable.js"
import { addedComments, addedLines, type FileEdit } from "../Edit.js"
import { normalizeKeyword, PromptText } from "../Keyword.js"

/** The paths in play: the input's paths and the edited files'. */
export const pathsInPlay = (input: { readonly paths?: ReadonlyArray<string> | undefined; readonly edits?: ReadonlyArray<FileEdit> | undefined }): ReadonlyArray<string> =>
  input.edits === undefined || input.edits.length === 0 ? (input.paths ?? []) : [...(input.paths ?? []), ...input.edits.map((edit) => edit.path)]

/** One edit of an arming call, computing what it added once however many skills ask. */
export class PreparedEdit {
  readonly path: string
  readonly #edit: FileEdit
  #comments: ReadonlyArray<string> | undefined
  #lines: ReadonlyArray<string> | undefined
  #text: PromptText | undefined
  readonly #linesWith = new Map<string, ReadonlyArray<string>>()

  constructor(edit: FileEdit) {
    this.path = edit.path
    this.#edit = edit
  }

  /** The lines holding a comment the edit added. */
  get commentLines(): ReadonlyArray<string> {
    this.#comments ??= [...new Set(addedComments(this.#edit).map((comment) => comment.line))]
    return this.#comments
  }

  /** The added lines holding `pattern` as a keyword; the whole added text is searched first, so a miss costs one pass. */
  linesWith(pattern: string): ReadonlyArray<string> {
    const keyword = normalizeKeyword(pattern)
    let lines = this.#linesWith.get(keyword)
    if (lines === undefined) {
      this.#lines ??= addedLines(this.#edit)
      this.#text ??= new PromptText(this.#lines.join("\n"))
      lines = this.#text.contains(keyword) ? this.#lines.filter((line) => new PromptText(line).contains(keyword)).map((line) => line.trim()) : []
      this.#linesWith.set(keyword, lines)
    }
    return lines
  }

  /** The added lines that meet the condition: comment lines, then lines holding a pattern, each once. */
  evidence(condition: EditCondition): ReadonlyArray<string> {
    const lines = new Set(condition.comments === true ? this.commentLines : [])
    for (const pattern of condition.added ?? []) for (const line of this.linesWith(pattern)) lines.add(line)
    return [...lines]
  }
}

/**
 * Which edits meet a skill's edit condition in a file its path globs match (any file without
 * globs), merged per file, and which globs matched those files.
 */
export const editEvidence = (
  condition: EditCondition,
  globs: ReadonlyArray<string> | undefined,
  edits: ReadonlyArray<PreparedEdit>,
  globMatches: (index: number, path: string) => boolean
): { readonly paths: ReadonlyArray<string>; readonly edits: ReadonlyArray<EditEvidence> } => {
  const matchedGlobs = new Set<number>()
  const byPath = new Map<string, Set<string>>()
  for (const edit of edits) {
    const hits = globs === undefined ? [] : globs.flatMap((_, index) => (globMatches(index, edit.path) ? [index] : []))
    if (globs !== undefined && hits.length === 0) continue
    const lines = edit.evidence(condition)
    if (lines.length === 0) continue
    for (const index of hits) matchedGlobs.add(index)
    const seen = byPath.get(edit.path) ?? new Set<string>()
    for (const line of lines) seen.add(line)
    byPath.set(edit.path, seen)
  }
  return {
    paths: (globs ?? []).filter((_, index) => matchedGlobs.has(index)),
    edits: [...byPath].map(([path, lines]) => ({ path, lines: [...lines] }))
  }
}
