import { describe, expect, it } from "vitest"
import { cutAtLine, snapshotRefs } from "../src/internal/SnapshotTree.js"

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
