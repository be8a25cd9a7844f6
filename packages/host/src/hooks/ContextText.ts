/**
 * Characters that change how text reads without being visible: controls, bidi embeddings and
 * overrides (U+202A–U+202E, U+2066–U+2069), zero-width and other format characters, line and
 * paragraph separators. A file name or a goal's text can carry them; in the model's context they
 * could reorder what it reads or start a line of their own.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu
const INVISIBLE_EXCEPT_NEWLINE = /(?![\n\t])[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu

const escaped = (character: string): string => `\\u{${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}}`

/** One line of text from a file or a user, with every invisible character written out as `\u{XXXX}`. */
export const contextLine = (text: string): string => text.replace(INVISIBLE, escaped)

/** Text of several lines (a goal snapshot): newlines and tabs stay, every other invisible character is written out. */
export const contextBlock = (text: string): string => text.replace(/\r\n?/g, "\n").replace(INVISIBLE_EXCEPT_NEWLINE, escaped)
