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

/**
 * The roles of a page's repeated items (a list's items, a table's rows …). Pages re-render such
 * items in place, an item's button taking another item's data, so an element inside one is known by
 * its item's content as well as its own role and name.
 */
const ITEM_ROLES: ReadonlySet<string> = new Set(["listitem", "row", "article", "option", "treeitem"])

/** Roles whose line ends with what the user typed or picked: that is not part of who they are, so filling one field leaves its neighbours' identity as it was. */
const VALUE_ROLES: ReadonlySet<string> = new Set(["textbox", "searchbox", "combobox", "spinbutton", "slider", "checkbox", "radio", "switch"])

/** The most lines of an item read for its identity; a longer item is known by its first lines. */
const MAX_ITEM_LINES = 200

/** `- role "name" [attr]…: text`, and the indentation before it. */
const NODE_LINE = /^(\s*)- ([a-zA-Z]+)(?: "((?:[^"\\]|\\.)*)")?((?: \[[^\]\n]*\])*)(?::(?: (.*))?)?$/
const ANY_LINE = /^(\s*)- ?(.*)$/

interface TreeLine {
  readonly indent: number
  readonly role: string | undefined
  /** The line as identity: role and name, and text that is not a value; no ref, no state. */
  readonly identity: string
}

const treeLine = (line: string): TreeLine => {
  const node = NODE_LINE.exec(line)
  if (node !== null) {
    const [, indent = "", role = "", name, , text] = node
    const named = name === undefined ? role : `${role} "${name}"`
    return { indent: indent.length, role, identity: text === undefined || VALUE_ROLES.has(role) ? named : `${named}: ${text}` }
  }
  const other = ANY_LINE.exec(line)
  return { indent: other?.[1]?.length ?? 0, role: undefined, identity: (other?.[2] ?? line).trim() }
}

/** The role and name (empty when none) a snapshot line gives its node. */
export const treeLineRole = (line: string): { readonly role: string; readonly name: string } => {
  const node = NODE_LINE.exec(line)
  return { role: node?.[2] ?? "generic", name: node?.[3] === undefined ? "" : unquote(node[3]) }
}

/**
 * Who the element behind a ref is, as a snapshot shows it: its role and name, the line of each
 * node it sits in (nearest first), and when it sits in a repeated item (a list item, a row …) that
 * item's role and content.
 */
export interface RefIdentity {
  readonly role: string
  readonly name: string | undefined
  readonly ancestry: ReadonlyArray<string>
  readonly item: { readonly role: string; readonly content: string } | undefined
}

/** The identity of the element a ref names in `tree`, or undefined when the tree does not show the ref. */
export const refIdentity = (tree: string, ref: string): RefIdentity | undefined => {
  const lines = tree.split("\n")
  const at = lines.findIndex((line) => REF_LINE.exec(line)?.[3] === ref)
  const match = at === -1 ? null : REF_LINE.exec(lines[at] ?? "")
  if (match === null) return undefined
  const [, role = "", name] = match
  const ancestry: Array<string> = []
  let item: RefIdentity["item"]
  let indent = treeLine(lines[at] ?? "").indent
  for (let index = at - 1; index >= 0 && indent > 0; index--) {
    const line = treeLine(lines[index] ?? "")
    if (line.indent >= indent) continue
    indent = line.indent
    ancestry.push(line.identity)
    if (item === undefined && line.role !== undefined && ITEM_ROLES.has(line.role)) {
      const content = [line.identity]
      for (let inner = index + 1; inner < lines.length && content.length < MAX_ITEM_LINES; inner++) {
        const innerLine = treeLine(lines[inner] ?? "")
        if (innerLine.indent <= line.indent) break
        content.push(innerLine.identity)
      }
      item = { role: line.role, content: content.join("\n") }
    }
  }
  return { role, name: name === undefined ? undefined : unquote(name), ancestry, item }
}

/** What changed about a ref's element between two identities, or undefined when it is the same element as shown. */
export const identityChange = (shown: RefIdentity, now: RefIdentity): string | undefined => {
  if (shown.role !== now.role || shown.name !== now.name) return `is no longer ${shown.role} ${JSON.stringify(shown.name ?? "")}`
  if (shown.item !== undefined && (now.item === undefined || shown.item.content !== now.item.content)) {
    return `sits in a ${shown.item.role} that changed: it was ${itemPreview(shown.item.content)}, it is now ${now.item === undefined ? "in none" : itemPreview(now.item.content)}`
  }
  if (shown.ancestry.join("\n") !== now.ancestry.join("\n")) return "moved to another part of the page"
  return undefined
}

/** The words a line of an item shows: a node's name, or its text. */
const shownWords = (identity: string): string | undefined => {
  const named = /^[a-zA-Z]+ "((?:[^"\\]|\\.)*)"/.exec(identity)
  if (named !== null) return unquote(named[1] ?? "")
  const text = /^[a-zA-Z]+: (.*)$/.exec(identity)
  return text === null ? undefined : text[1]
}

/** An item's content in a line: the words its lines show, cut to 120 characters. */
const itemPreview = (content: string): string => {
  const text = content
    .split("\n")
    .slice(1)
    .map(shownWords)
    .filter((words) => words !== undefined && words !== "")
    .join(" · ")
  return JSON.stringify(text.length <= 120 ? text : `${text.slice(0, 120)}…`)
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
