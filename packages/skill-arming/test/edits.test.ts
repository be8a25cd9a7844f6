import { describe, expect, it } from "vitest"
import { addedComments, addedLines, type Armable, arm, compileSkills, type FileEdit, type Input } from "../src/index.js"

const commentChecker: Armable = {
  name: "comment-checker",
  autoInject: { paths: ["**/*.{ts,py,go,rs,sh,sql,lua,hs,css}", "**/*.{html,md,vue,yaml}"], edits: { comments: true } }
}
const todoWatch: Armable = { name: "todo-watch", autoInject: { edits: { added: ["TODO", "eslint-disable"] } } }
const pathOnly: Armable = { name: "ts-style", autoInject: { paths: ["**/*.ts"] } }

/** Both matching paths, which must agree. */
const armBoth = (input: Omit<Input, "skills"> & { readonly skills: ReadonlyArray<Armable> }) => {
  const direct = arm(input)
  expect(arm({ ...input, skills: compileSkills(input.skills) })).toEqual(direct)
  return direct
}

const commentsOf = (edit: FileEdit) => addedComments(edit).map((comment) => comment.text)

describe("addedComments", () => {
  it("finds the comments an edit added, in the languages' own syntax", () => {
    expect(commentsOf({ path: "a.ts", after: "const x = 1 // the retry budget\n/* spans\n   lines */ f()" })).toEqual(["the retry budget", "spans", "lines"])
    expect(commentsOf({ path: "a.py", after: "x = 1  # why it is 1\ny = '#not a comment'" })).toEqual(["why it is 1"])
    expect(commentsOf({ path: "run.sh", after: 'echo "$#" ${#list} # count the args' })).toEqual(["count the args"])
    expect(commentsOf({ path: "q.sql", after: "select 1 -- the health check" })).toEqual(["the health check"])
    expect(commentsOf({ path: "init.lua", after: "--[[ a block ]] x = 1 -- a line" })).toEqual(["a block", "a line"])
    expect(commentsOf({ path: "Main.hs", after: "{- pragma-free -} main = pure () -- done" })).toEqual(["pragma-free", "done"])
    expect(commentsOf({ path: "site.css", after: "a { color: red; } /* brand */" })).toEqual(["brand"])
    expect(commentsOf({ path: "page.html", after: "<p>it's here</p> <!-- hidden note -->" })).toEqual(["hidden note"])
    expect(commentsOf({ path: "lib.rs", after: "fn f<'a>(x: &'a str) {} /// borrows x" })).toEqual(["borrows x"])
    expect(commentsOf({ path: "Dockerfile", after: "FROM node:24 # the LTS line" })).toEqual(["the LTS line"])
    expect(commentsOf({ path: "nb.ipynb", after: "# Title", syntax: "md" })).toEqual([])
  })

  it("does not take comment markers inside strings for comments", () => {
    expect(commentsOf({ path: "a.ts", after: 'const url = "https://example.com/a"\nconst s = `/* no */`\nconst t = \'// no\'' })).toEqual([])
    expect(commentsOf({ path: "a.py", after: 'print("a # b", \'c # d\')' })).toEqual([])
    expect(commentsOf({ path: "a.go", after: 's := "escaped \\" // still a string"' })).toEqual([])
  })

  it("counts a comment only when the edit added or changed it, not when it kept or moved it", () => {
    const before = "// keep this\nconst a = 1 // and this\nconst b = 2"
    expect(commentsOf({ path: "a.ts", before, after: "// keep this\nconst a = 10 // and this\nconst b = 20" })).toEqual([])
    expect(commentsOf({ path: "a.ts", before, after: "const b = 2\n// keep this\nconst a = 1 // and this" })).toEqual([])
    expect(commentsOf({ path: "a.ts", before, after: "// keep this, changed\nconst a = 1 // and this\nconst b = 2" })).toEqual(["keep this, changed"])
    expect(commentsOf({ path: "a.ts", before: "// twice\n// twice", after: "// twice\n// twice\n// twice" })).toEqual(["twice"])
  })

  it("reads a block comment whose opening line the edit did not show by its leading stars", () => {
    expect(addedComments({ path: "a.ts", after: " * the second line of a doc comment\n */\nexport const x = 1" })).toEqual([
      { line: "* the second line of a doc comment", text: "the second line of a doc comment" }
    ])
  })

  it("finds nothing in a language it does not know, and nothing in bare markers or a shebang", () => {
    expect(commentsOf({ path: "notes.unknownext", after: "// looks like one" })).toEqual([])
    expect(commentsOf({ path: "Makefile.am.weird", after: "# looks like one" })).toEqual([])
    expect(commentsOf({ path: "a.ts", after: "//\n/**\n */\nconst x = 1" })).toEqual([])
    expect(commentsOf({ path: "a.py", after: "#!/usr/bin/env python3\nimport os" })).toEqual([])
  })
})

describe("addedLines", () => {
  it("is the new side's lines the old side does not hold, repeats counted", () => {
    expect(addedLines({ path: "a", before: "a\nb\nb", after: "a\nb\nb\nb\nc" })).toEqual(["b", "c"])
    expect(addedLines({ path: "a", after: "x\r\ny" })).toEqual(["x", "y"])
  })
})

describe("arming on what an edit changed", () => {
  it("arms a skill with a comments condition only for an edit that added a comment, and quotes the lines", () => {
    const skills = [commentChecker, pathOnly]
    expect(armBoth({ skills, prompt: "", edits: [{ path: "src/a.ts", before: "const a = 1", after: "const a = 2" }] }).map((armed) => armed.name)).toEqual(["ts-style"])
    expect(armBoth({ skills, prompt: "", edits: [{ path: "src/a.ts", before: "const a = 1", after: "// why two\nconst a = 2" }] })).toEqual([
      { name: "comment-checker", keywords: [], urls: [], paths: ["**/*.{ts,py,go,rs,sh,sql,lua,hs,css}"], edits: [{ path: "src/a.ts", lines: ["// why two"] }] },
      { name: "ts-style", keywords: [], urls: [], paths: ["**/*.ts"], edits: [] }
    ])
  })

  it("never arms an edit-conditioned skill on a path alone, nor on a comment in a file its globs do not match", () => {
    expect(armBoth({ skills: [commentChecker], prompt: "", paths: ["src/a.ts"] })).toEqual([])
    expect(armBoth({ skills: [commentChecker], prompt: "", edits: [{ path: "src/a.txt", after: "// a comment" }] })).toEqual([])
  })

  it("arms on a pattern in an added line, with no paths meaning any file, and merges the lines per file", () => {
    const edits: ReadonlyArray<FileEdit> = [
      { path: "a.txt", before: "TODO: old", after: "TODO: old\nnothing here" },
      { path: "b.ts", after: "// TODO: retry\nfoo() // eslint-disable-line" },
      { path: "b.ts", after: "// TODO: retry" }
    ]
    expect(armBoth({ skills: [todoWatch], prompt: "", edits })).toEqual([
      { name: "todo-watch", keywords: [], urls: [], paths: [], edits: [{ path: "b.ts", lines: ["// TODO: retry", "foo() // eslint-disable-line"] }] }
    ])
  })

  it("holds for no edit when the condition is empty, and keeps keyword arming apart from edits", () => {
    const empty: Armable = { name: "empty", autoInject: { paths: ["**"], edits: {} } }
    const both: Armable = { name: "both", autoInject: { keywords: ["review"], edits: { comments: true } } }
    expect(armBoth({ skills: [empty, both], prompt: "please review", edits: [{ path: "a.ts", after: "// x" }] })).toEqual([
      { name: "both", keywords: ["review"], urls: [], paths: [], edits: [{ path: "a.ts", lines: ["// x"] }] }
    ])
  })

  it("stays linear on a hostile edit: a long line of markers and quotes, and many lines", () => {
    const hostile = `${'"'.repeat(50_000)}${"/*".repeat(50_000)}\n${"// x\n".repeat(50_000)}`
    const armed = arm({ skills: [commentChecker, todoWatch], prompt: "", edits: [{ path: "h.ts", after: hostile }] })
    expect(armed.map((entry) => entry.name)).toEqual(["comment-checker"])
  })
})
