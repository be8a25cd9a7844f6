import { type CommentSyntax, commentSyntaxOf } from "./internal/CommentSyntax.js"

/**
 * What one edit changed in one file, as a post-edit hook knows it: the text the edit put in and,
 * when known, the text it replaced. A replaced region gives both sides; a written file gives its
 * new content (and its old one, when the host says); a patch hunk gives its new side (context and
 * added lines) and its old side (context and removed lines).
 */
export interface FileEdit {
  /** Repo-relative POSIX path of the edited file. */
  readonly path: string
  readonly after: string
  /** Absent when the edit created the file or the host does not say what was there. */
  readonly before?: string | undefined
  /** The language as an extension (`py`, `md`) when the path does not say it, e.g. a notebook's Markdown cell. */
  readonly syntax?: string | undefined
}

/** A comment an edit added or changed: the line it stands on (trimmed) and its text without markers. */
export interface AddedComment {
  readonly line: string
  readonly text: string
}

const LINE_BREAK = /\r\n|\r|\n/u
const MARKER_RUN = /^[\s*/!#;%=-]+/u

const linesOf = (text: string | undefined): ReadonlyArray<string> => (text === undefined || text === "" ? [] : text.split(LINE_BREAK))

/** Counts of each item, to take one side's items away from the other's. */
const countsOf = (items: Iterable<string>): Map<string, number> => {
  const counts = new Map<string, number>()
  for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1)
  return counts
}

/** The items of `after` not matched one for one by an equal item of `before`, in order. */
const notIn = <T>(after: ReadonlyArray<T>, before: Iterable<string>, key: (item: T) => string): ReadonlyArray<T> => {
  const remaining = countsOf(before)
  return after.filter((item) => {
    const count = remaining.get(key(item)) ?? 0
    if (count === 0) return true
    remaining.set(key(item), count - 1)
    return false
  })
}

/** The lines the edit added: those of `after` that `before` does not hold (counting repeats), in order. */
export const addedLines = (edit: FileEdit): ReadonlyArray<string> => notIn(linesOf(edit.after), linesOf(edit.before), (line) => line)

interface CommentPiece {
  readonly line: string
  readonly text: string
}

const piece = (line: string, text: string): CommentPiece => ({ line: line.trim(), text: text.replace(MARKER_RUN, "").trim() })

/** The index just past the string opened by `quote` at `start`, or the line's length when it runs to the end. */
const stringEnd = (line: string, start: number, quote: string): number => {
  for (let index = start + 1; index < line.length; index++) {
    if (line[index] === "\\") index++
    else if (line[index] === quote) return index + 1
  }
  return line.length
}

/** The comments of a text, a piece per line: strings skipped, block comments followed across lines. */
const commentPieces = (text: string, syntax: CommentSyntax): ReadonlyArray<CommentPiece> => {
  const pieces: Array<CommentPiece> = []
  let openBlock: string | undefined
  for (const line of linesOf(text)) {
    let index = 0
    if (openBlock !== undefined) {
      const close = line.indexOf(openBlock)
      if (close === -1) {
        pieces.push(piece(line, line))
        continue
      }
      pieces.push(piece(line, line.slice(0, close)))
      index = close + openBlock.length
      openBlock = undefined
    } else if (syntax.starContinuation === true && /^\s*\*(?:\s|\/|$)/u.test(line)) {
      const close = line.indexOf("*/")
      pieces.push(piece(line, close === -1 ? line : line.slice(0, close)))
      if (close === -1) continue
      index = close + 2
    }
    if (syntax.line.includes("#") && /^\s*#!/u.test(line)) continue
    while (index < line.length) {
      const char = line[index] ?? ""
      if (syntax.quotes.includes(char)) {
        index = stringEnd(line, index, char)
        continue
      }
      const block = syntax.block.find(([open]) => line.startsWith(open, index))
      if (block !== undefined) {
        const [open, close] = block
        const end = line.indexOf(close, index + open.length)
        if (end === -1) {
          pieces.push(piece(line, line.slice(index + open.length)))
          openBlock = close
          break
        }
        pieces.push(piece(line, line.slice(index + open.length, end)))
        index = end + close.length
        continue
      }
      const marker = syntax.line.find((candidate) => line.startsWith(candidate, index))
      if (marker !== undefined && (syntax.lineMarkerAfterSpace !== true || index === 0 || /\s/u.test(line[index - 1] ?? ""))) {
        pieces.push(piece(line, line.slice(index + marker.length)))
        break
      }
      index++
    }
  }
  return pieces.filter((found) => found.text !== "")
}

/**
 * The comments an edit added or changed, in the order they stand in its new text: the comments of
 * `after` that `before` does not hold word for word. A comment the edit only moved, or kept on a line
 * whose code changed, is not one. Knows the comment syntax of common languages by the path's extension
 * (C-family, JavaScript and TypeScript, Python, shells, Ruby, Rust, Go, SQL, Lua, Haskell, Lisps,
 * CSS, HTML, Markdown and more); for a language it does not know, finds none.
 */
export const addedComments = (edit: FileEdit): ReadonlyArray<AddedComment> => {
  const syntax = commentSyntaxOf(edit.path, edit.syntax)
  if (syntax === undefined) return []
  const before = edit.before === undefined ? [] : commentPieces(edit.before, syntax).map((found) => found.text)
  return notIn(commentPieces(edit.after, syntax), before, (found) => found.text)
}
