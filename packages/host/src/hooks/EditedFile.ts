import { isRecord } from "./FileStamps.js"

/**
 * A file an edit tool changed, as a hook payload tells it: the file as the host named it (absolute
 * or relative to the session's directory) and, when the payload carries them, the text the edit put
 * in and the text it replaced. A file named without its text (a deletion) arms by its path only.
 */
export interface EditedFile {
  readonly file: string
  readonly after?: string | undefined
  readonly before?: string | undefined
  /** The language as an extension, when the path does not say it (a notebook's Markdown cell). */
  readonly syntax?: string | undefined
}

/** The most text of one event's edits read for what they changed; an edit past it arms by its path only. */
export const MAX_EDIT_TEXT_CHARS = 1_048_576

/** The most edits of one event looked at (a `MultiEdit` list or a patch's hunks can be any length); the rest are not. */
export const MAX_EDITS_PER_EVENT = 4_096

const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined)

/** A replacement of `before` by `after` in `file`, when both are strings. */
export const replacement = (file: string, before: unknown, after: unknown): EditedFile => {
  const put = text(after)
  const replaced = text(before)
  return put === undefined ? { file } : replaced === undefined ? { file, after: put } : { file, after: put, before: replaced }
}

/** The edits of an input's `edits` list (`MultiEdit`, OpenCode's `multiedit`), each a replacement read with the given field names. */
export const replacements = (file: string, list: unknown, beforeField: string, afterField: string): ReadonlyArray<EditedFile> =>
  Array.isArray(list)
    ? list.flatMap((entry: unknown) => (isRecord(entry) ? [replacement(file, entry[beforeField], entry[afterField])] : []))
    : []

/**
 * The first {@link MAX_EDITS_PER_EVENT} edits, with their text kept while the event's total stays
 * within {@link MAX_EDIT_TEXT_CHARS}; later ones keep only their file, so a huge write costs a
 * bounded read and still arms by path.
 */
export const boundedEdits = (edits: ReadonlyArray<EditedFile>): ReadonlyArray<EditedFile> => {
  let used = 0
  return edits.slice(0, MAX_EDITS_PER_EVENT).map((edit) => {
    const size = (edit.after?.length ?? 0) + (edit.before?.length ?? 0)
    if (size === 0) return edit
    used += size
    return used <= MAX_EDIT_TEXT_CHARS ? edit : { file: edit.file }
  })
}
