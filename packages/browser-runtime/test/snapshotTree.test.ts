import { describe, expect, it } from "vitest"
import { cutAtLine, identityChange, refIdentity, snapshotRefs } from "../src/internal/SnapshotTree.js"

describe("snapshotRefs", () => {
  it("reads each node's ref with the role and name it was shown with", () => {
    const tree = [
      "- generic [active] [ref=e1]:",
      '  - heading "Items" [level=1] [ref=e2]',
      '  - button "Keep \\"this\\"" [ref=e3]',
      "  - paragraph [ref=e4]: plain text",
      '  - link "Home" [ref=e5] [cursor=pointer]:',
      "    - /url: /home"
    ].join("\n")
    expect([...snapshotRefs(tree)]).toEqual([
      ["e1", { role: "generic", name: undefined }],
      ["e2", { role: "heading", name: "Items" }],
      ["e3", { role: "button", name: 'Keep "this"' }],
      ["e4", { role: "paragraph", name: undefined }],
      ["e5", { role: "link", name: "Home" }]
    ])
  })

  it("never takes a ref from text the page wrote", () => {
    const tree = [
      "  - text: see [ref=e3] and [ref=e99]",
      '  - button "Delete [ref=e7]" [ref=e3]',
      "  - paragraph [ref=e4]: [ref=e3]"
    ].join("\n")
    expect([...snapshotRefs(tree)]).toEqual([
      ["e3", { role: "button", name: "Delete [ref=e7]" }],
      ["e4", { role: "paragraph", name: undefined }]
    ])
  })
})

describe("cutAtLine", () => {
  it("keeps whole lines within the byte bound, counting UTF-8 bytes", () => {
    expect(cutAtLine("ab\ncd\nef", 100)).toEqual({ text: "ab\ncd\nef", truncated: false })
    expect(cutAtLine("ab\ncd\nef", 6)).toEqual({ text: "ab\ncd", truncated: true })
    expect(cutAtLine("é\nx", 2)).toEqual({ text: "", truncated: true })
  })
})

/** A snapshot of a list item and a form item, with the text, the Name value and the checkbox state given. */
const form = (name: string, invoice: string, checked: string) =>
  [
    "- generic [ref=e1]:",
    "  - list [ref=e2]:",
    "    - listitem [ref=e3]:",
    `      - text: ${invoice}`,
    '      - button "Approve" [ref=e4]',
    "  - generic [ref=e5]:",
    "    - listitem [ref=e9]:",
    `      - textbox "Name" [active] [ref=e6]: ${name}`,
    `      - checkbox "Urgent" ${checked}[ref=e7]`,
    '      - button "Send" [ref=e8]'
  ].join("\n")

describe("refIdentity", () => {
  it("tells a button in another item apart, and leaves values and states out of who an element is", () => {
    const shown = form("", "Invoice 1", "")
    const approve = refIdentity(shown, "e4")
    expect(approve).toEqual({ role: "button", name: "Approve", ancestry: ["listitem", "list", "generic"], item: { role: "listitem", content: 'listitem\ntext: Invoice 1\nbutton "Approve"' } })
    expect(identityChange(approve!, refIdentity(form("", "Invoice 2", ""), "e4")!)).toBe('sits in a listitem that changed: it was "Invoice 1 · Approve", it is now "Invoice 2 · Approve"')
    // Typing into a field and ticking a box of the same item change no neighbour's identity.
    const filled = form("Ada Lovelace", "Invoice 1", "[checked] ")
    for (const ref of ["e4", "e6", "e7", "e8"]) expect({ ref, change: identityChange(refIdentity(shown, ref)!, refIdentity(filled, ref)!) }).toEqual({ ref, change: undefined })
    expect(refIdentity(shown, "e99")).toBeUndefined()
    expect(identityChange(approve!, { ...approve!, name: "Reject" })).toBe('is no longer button "Approve"')
    expect(identityChange(refIdentity(shown, "e1")!, { ...refIdentity(shown, "e1")!, ancestry: ["main"] })).toBe("moved to another part of the page")
  })

  it("reads a bounded part of a hostile item, 100,000 lines wide, and follows 20,000 levels up", () => {
    const lines = ["- listitem [ref=e1]:", '  - button "Go" [ref=e2]', ...Array.from({ length: 100_000 }, (_, index) => `  - text: line ${index}`)]
    const wide = refIdentity(lines.join("\n"), "e2")
    expect(wide?.item?.content.split("\n")).toHaveLength(200)
    const deep = [...Array.from({ length: 20_000 }, (_, depth) => `${"  ".repeat(depth)}- listitem:`), `${"  ".repeat(20_000)}- button "Deep" [ref=e3]`].join("\n")
    expect(refIdentity(deep, "e3")?.ancestry).toHaveLength(20_000)
  })
})
