import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { type Armable, arm, compileSkills } from "../src/index.js"

const vocabulary = [
  "browser", "click", "pdf", ".pdf", "c++", "ai", "said", "café", "cafés", "요약", "요약해줘", "로",
  "ＰＤＦ", "PDF", "docs.google.com", "document", "documents", "λόγος", "код", "e\u0301", "q\u0303", "_x", "x_", "42"
]
const separators = [" ", "  ", "\n", ", ", ".", "를 ", "を", "", "-", "\t", "/"]

const word = fc.oneof(fc.constantFrom(...vocabulary), fc.string({ unit: "grapheme", maxLength: 6 }))
const prompt = fc
  .array(fc.tuple(word, fc.constantFrom(...separators)), { maxLength: 12 })
  .map((parts) => parts.map(([text, separator]) => `${text}${separator}`).join(""))

const hosts = ["example.com", "docs.google.com", "localhost:3000", "a.b.example.org", "bücher.example"]
const segments = ["a", "b", "document", "d", "x.y", "(1)", "%20", "문서"]
const globPart = fc.constantFrom(...segments, "*", "**", "?", "{a,b}")
const urlGlob = fc
  .tuple(fc.constantFrom(...hosts, "*.example.com", "**", "docs.google.com*"), fc.array(globPart, { maxLength: 4 }))
  .map(([host, parts]) => [host, ...parts].join("/"))
const url = fc
  .tuple(fc.constantFrom("https://", "http://", "", "https://user:pw@"), fc.constantFrom(...hosts), fc.array(fc.constantFrom(...segments), { maxLength: 4 }), fc.constantFrom("", "?q=1", "#f"))
  .map(([scheme, host, parts, tail]) => `${scheme}${host}/${parts.join("/")}${tail}`)
const pathGlob = fc.array(globPart, { minLength: 1, maxLength: 4 }).map((parts) => parts.join("/"))
const path = fc.array(fc.constantFrom(...segments, "src", "App.tsx", "main.ts"), { minLength: 1, maxLength: 4 }).map((parts) => parts.join("/"))

const codeLine = fc.constantFrom("x = 1", "// why it is so", "# a note", "/* block", "end */", "todo: later", "s = \"//\"", "-- sql", "<!-- html -->", "TODO fix", "")
const edit = fc.record(
  {
    path: fc.tuple(path, fc.constantFrom(".ts", ".py", ".sql", ".html", ".unknown", "")).map(([base, extension]) => `${base}${extension}`),
    after: fc.array(codeLine, { maxLength: 5 }).map((lines) => lines.join("\n")),
    before: fc.array(codeLine, { maxLength: 5 }).map((lines) => lines.join("\n"))
  },
  { requiredKeys: ["path", "after"] }
)
const editCondition = fc.record({ comments: fc.boolean(), added: fc.array(fc.constantFrom("todo", "fix", "x", "note"), { maxLength: 2 }) }, { requiredKeys: [] })

const autoInject = fc.record(
  {
    keywords: fc.array(word, { maxLength: 4 }),
    url: fc.array(urlGlob, { maxLength: 3 }),
    paths: fc.array(pathGlob, { maxLength: 3 }),
    edits: editCondition
  },
  { requiredKeys: [] }
)

const skills = fc
  .array(fc.option(autoInject, { nil: undefined }), { maxLength: 12 })
  .map((blocks): ReadonlyArray<Armable> =>
    blocks.map((block, index) => (block === undefined ? { name: `skill-${index}` } : { name: `skill-${index}`, autoInject: block }))
  )

const input = fc.record({
  skills,
  prompt,
  url: fc.option(url, { nil: undefined }),
  paths: fc.option(fc.array(path, { maxLength: 3 }), { nil: undefined }),
  edits: fc.option(fc.array(edit, { maxLength: 3 }), { nil: undefined })
})

describe("arming properties", () => {
  it("gives the same answer from a skills array and from its compiled index", () => {
    fc.assert(
      fc.property(input, (generated) => {
        expect(arm({ ...generated, skills: compileSkills(generated.skills) })).toEqual(arm(generated))
      }),
      { numRuns: 1000 }
    )
  })

  it("decides each skill on its own: the other skills in the set never change its result", () => {
    fc.assert(
      fc.property(input, (generated) => {
        const together = arm({ ...generated, skills: compileSkills(generated.skills) })
        for (const skill of generated.skills) {
          const alone = arm({ ...generated, skills: compileSkills([skill]) })
          expect(together.filter((armed) => armed.name === skill.name)).toEqual(alone)
        }
      }),
      { numRuns: 300 }
    )
  })

  it("arms only skills that declare something, listing only declared patterns", () => {
    fc.assert(
      fc.property(input, (generated) => {
        for (const armed of arm(generated)) {
          const declared = generated.skills.find((skill) => skill.name === armed.name)?.autoInject
          expect(declared).toBeDefined()
          expect(armed.keywords.every((keyword) => declared?.keywords?.includes(keyword))).toBe(true)
          expect(armed.urls.every((glob) => declared?.url?.includes(glob))).toBe(true)
          expect(armed.paths.every((glob) => declared?.paths?.includes(glob))).toBe(true)
          expect(armed.edits.length === 0 || declared?.edits !== undefined).toBe(true)
          expect(armed.keywords.length + armed.urls.length + armed.paths.length + armed.edits.length).toBeGreaterThan(0)
        }
      }),
      { numRuns: 500 }
    )
  })
})
