import { Result } from "effect"
import { MAX_FRONTMATTER_BYTES } from "./Limits.js"
import { describeValue } from "./internal/text.js"

/** A SKILL.md split at its `---` lines: the YAML text between them and the Markdown after. */
export interface Frontmatter {
  /** The YAML text; its first line is line 2 of the file. */
  readonly yaml: string
  /** Everything after the closing `---` line, verbatim. */
  readonly body: string
}

// `--- # a comment` is a YAML document marker too; `---js` (a language after the dashes) is not.
const OPENING_LINE = /^---(?:[ \t]+#[^\r\n]*)?[ \t]*(?:\r?\n|$)/
const CLOSING_LINE = /^---[ \t]*\r?$/gm

const firstLine = (text: string): string => text.slice(0, Math.min(text.search(/\r?\n|$/), 40))

/**
 * Splits a SKILL.md's text into frontmatter and body. The first line must be exactly `---` (a byte
 * order mark before it, trailing blanks and a ` # comment` are allowed; CRLF line ends are accepted): a language
 * after the dashes, such as gray-matter's code-executing `---js`, is refused, because only YAML is
 * ever read. Fails with a human reason when there is no frontmatter, it is never closed, or it is
 * over {@link MAX_FRONTMATTER_BYTES}.
 */
export const splitFrontmatter = (document: string): Result.Result<Frontmatter, string> => {
  const text = document.startsWith("\uFEFF") ? document.slice(1) : document
  const opening = OPENING_LINE.exec(text)
  if (opening === null) {
    return Result.fail(
      text.startsWith("---")
        ? `frontmatter must open with a line of exactly "---", found ${describeValue(firstLine(text))}: only YAML frontmatter is read, never a code-executing engine`
        : "no frontmatter: a SKILL.md starts with a \"---\" line, then YAML, then a closing \"---\" line"
    )
  }
  const yamlStart = opening[0].length
  CLOSING_LINE.lastIndex = yamlStart
  const closing = CLOSING_LINE.exec(text)
  if (closing === null) return Result.fail("frontmatter not closed: no \"---\" line after the opening one")
  const yaml = text.slice(yamlStart, closing.index)
  const bytes = Buffer.byteLength(yaml, "utf8")
  if (bytes > MAX_FRONTMATTER_BYTES) {
    return Result.fail(`frontmatter too large: ${bytes} bytes, over the ${MAX_FRONTMATTER_BYTES}-byte limit`)
  }
  const afterClosing = closing.index + closing[0].length
  const body = text.slice(afterClosing).replace(/^\r?\n/, "")
  return Result.succeed({ yaml, body })
}
