import { secretKind } from "./Secrets.js"

/** Lines longer than this are not a version banner. */
export const MAX_BANNER_LINE = 200

/** The verdict on a driver's output: the single trusted line, or why it is not trusted. */
export type BannerAssessment =
  | { readonly trusted: true; readonly line: string }
  | { readonly trusted: false; readonly reason: string }

// CSI (colours, cursor moves) and OSC (titles, hyperlinks) sequences: a coloured banner is still a banner.
// oxlint-disable-next-line no-control-regex -- matching terminal escape sequences is this pattern's purpose
const ANSI_SEQUENCE = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g
// Control (Cc), format (Cf: zero-width, bidi overrides, BOM), private-use, unassigned and
// line/paragraph separator characters have no place in a version banner.
const UNSAFE_CHARACTER = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Zl}\p{Zp}]/u
const MARKUP = /<\/?[A-Za-z!?][^>]*>|<!--|<\||\|>|\{\{|\}\}|\{%|%\}|\[\/?INST\]|<<\/?SYS>>/
const INSTRUCTION = new RegExp(
  [
    String.raw`\b(?:ignore|disregard|forget|override|bypass)\b.{0,40}\b(?:instructions?|prompts?|rules|messages|context|guidelines)\b`,
    String.raw`\b(?:system|assistant|developer|user|human)\s*:`,
    String.raw`\byou are (?:now|an?|the)\b`,
    String.raw`\b(?:new|updated|real) instructions?\b`,
    String.raw`\b(?:act|behave) as\b`,
    String.raw`\bdo not (?:tell|inform|reveal)\b`,
    String.raw`\b(?:run|execute|install|download|curl|wget)\b.{0,40}(?:https?:|\||&&|;|\bsudo\b|\bsh\b)`
  ].join("|"),
  "i"
)

const codePoint = (character: string): string =>
  `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`

/**
 * Why `text` (one or more lines, no trailing newline) must not be trusted nor echoed, or null.
 * Names the rule that failed, never the offending text, except a control character's code point.
 */
export const untrustedTextReason = (text: string, maxLineLength: number = MAX_BANNER_LINE): string | null => {
  for (const line of text.split("\n")) {
    const unsafe = UNSAFE_CHARACTER.exec(line)
    if (unsafe !== null) return `it contains a control or format character (${codePoint(unsafe[0])})`
    if ([...line].length > maxLineLength) return `it has a line longer than ${maxLineLength} characters`
  }
  if (MARKUP.test(text)) return "it contains markup"
  if (INSTRUCTION.test(text)) return "it contains an instruction phrase"
  const secret = secretKind(text)
  if (secret !== null) return `it contains a secret shape (${secret})`
  return null
}

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true })

/**
 * Screens a version run's stdout: strict UTF-8, ANSI sequences removed, one trailing newline
 * allowed; then every rule of {@link untrustedTextReason}; then exactly one line.
 */
export const assessBanner = (stdout: string | Uint8Array): BannerAssessment => {
  let text: string
  try {
    text = typeof stdout === "string" ? stdout : decoder.decode(stdout)
  } catch {
    return { trusted: false, reason: "it is not valid UTF-8" }
  }
  const stripped = text.replace(ANSI_SEQUENCE, "").replace(/\n$/, "")
  if (stripped.length === 0) return { trusted: false, reason: "it is empty" }
  const reason = untrustedTextReason(stripped)
  if (reason !== null) return { trusted: false, reason }
  if (stripped.includes("\n")) return { trusted: false, reason: "it has more than one line" }
  return { trusted: true, line: stripped }
}
