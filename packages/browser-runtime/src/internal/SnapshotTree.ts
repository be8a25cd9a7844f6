/** What a snapshot line says of the element behind a ref: its role and, when printed, its name. */
export interface RefEntry {
  readonly role: string
  readonly name: string | undefined
}

/**
 * A node line: `- role "name" [attr] … [ref=eN]`, then optionally `: text`. The ref must sit in the
 * bracketed run right after the role and name, so text the page wrote (in a name, or after the
 * colon) cannot add or shadow a ref.
 */
const REF_LINE = /^\s*- ([a-zA-Z]+)(?: "((?:[^"\\]|\\.)*)")?(?: \[[^\]\n]*\])*? \[ref=([^\]\s]+)\]/

const unquote = (raw: string): string => {
  try {
    const parsed: unknown = JSON.parse(`"${raw}"`)
    return typeof parsed === "string" ? parsed : raw
  } catch {
    return raw
  }
}

/** Every ref a snapshot tree shows, with the role and name it was shown with. */
export const snapshotRefs = (tree: string): ReadonlyMap<string, RefEntry> => {
  const refs = new Map<string, RefEntry>()
  for (const line of tree.split("\n")) {
    const match = REF_LINE.exec(line)
    if (match === null) continue
    const [, role = "", name, ref = ""] = match
    if (!refs.has(ref)) refs.set(ref, { role, name: name === undefined ? undefined : unquote(name) })
  }
  return refs
}

const encoder = new TextEncoder()

const utf8Bytes = (text: string): number => encoder.encode(text).length

/** The longest prefix of `text` within `maxBytes` of UTF-8 that ends at a line boundary. */
export const cutAtLine = (text: string, maxBytes: number): { readonly text: string; readonly truncated: boolean } => {
  if (utf8Bytes(text) <= maxBytes) return { text, truncated: false }
  const lines = text.split("\n")
  const kept: Array<string> = []
  let bytes = 0
  for (const line of lines) {
    const size = utf8Bytes(line) + 1
    if (bytes + size > maxBytes) break
    kept.push(line)
    bytes += size
  }
  return { text: kept.join("\n"), truncated: true }
}

/** The longest prefix of `text` within `maxBytes` of UTF-8, never splitting a character. */
export const cutAtCharacter = (text: string, maxBytes: number): string => {
  if (utf8Bytes(text) <= maxBytes) return text
  let bytes = 0
  let end = 0
  for (const character of text) {
    const size = utf8Bytes(character)
    if (bytes + size > maxBytes) break
    bytes += size
    end += character.length
  }
  return text.slice(0, end)
}
