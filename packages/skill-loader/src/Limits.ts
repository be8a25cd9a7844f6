/**
 * The bounds that keep a hostile SKILL.md from costing more than a few milliseconds. A document
 * past any of them is dropped with a reason naming the bound; nothing is read or parsed beyond it.
 */

/** A SKILL.md larger than this (checked with `stat` before reading) is dropped unread: 1 MiB. */
export const MAX_SKILL_FILE_BYTES = 1024 * 1024

/** Frontmatter (the YAML between the `---` lines) larger than this, in UTF-8 bytes, is dropped: 64 KiB. */
export const MAX_FRONTMATTER_BYTES = 64 * 1024

/**
 * Frontmatter with more lines plus flow-collection separators (`,`) than this is dropped before
 * the YAML parser sees it: the parser's cost grows with the number of nodes, and a real skill's
 * frontmatter is a few dozen lines.
 */
export const MAX_FRONTMATTER_ENTRIES = 512

/**
 * Frontmatter whose nesting could exceed this many levels (indentation, compact `- - -` items
 * and open `[`/`{` brackets, counted conservatively) is dropped before the YAML parser sees it:
 * the parser recurses per level.
 */
export const MAX_FRONTMATTER_NESTING = 64
