import { describe, expect, it } from "vitest"
import { compilePathGlob, compileUrlGlob, normalizeUrl } from "../src/index.js"

const urlMatches = (glob: string, url: string) => {
  const subject = normalizeUrl(url)
  return subject !== undefined && compileUrlGlob(glob).matches(subject)
}

describe("URL globs", () => {
  it("lets `*` and `?` stop at `/`", () => {
    expect(urlMatches("example.com/*", "https://example.com/a")).toBe(true)
    expect(urlMatches("example.com/*", "https://example.com/a/b")).toBe(false)
    expect(urlMatches("example.com/?", "https://example.com/a")).toBe(true)
    expect(urlMatches("example.com/?", "https://example.com/ab")).toBe(false)
  })

  it("lets `**` cross zero or more segments", () => {
    expect(urlMatches("example.com/a/**", "https://example.com/a")).toBe(true)
    expect(urlMatches("example.com/a/**", "https://example.com/a/b/c")).toBe(true)
    expect(urlMatches("example.com/a/**", "https://example.com/ab")).toBe(false)
    expect(urlMatches("example.com/a/**/b", "https://example.com/a/b")).toBe(true)
    expect(urlMatches("example.com/a/**/b", "https://example.com/a/x/y/b")).toBe(true)
    expect(urlMatches("example.com/a/**/b", "https://example.com/a/xb")).toBe(false)
    expect(urlMatches("**/admin", "https://anything.example/admin")).toBe(true)
    expect(urlMatches("example.com/**", "https://example.com")).toBe(true)
  })

  it("keeps every other character literal: dots, parentheses, braces, brackets, plus", () => {
    expect(urlMatches("example.com/a.b", "https://example.com/aXb")).toBe(false)
    expect(urlMatches("example.com/(x)", "https://example.com/(x)")).toBe(true)
    expect(urlMatches("example.com/{a,b}", "https://example.com/a")).toBe(false)
    expect(urlMatches("example.com/{a,b}", "https://example.com/%7Ba,b%7D")).toBe(false)
    expect(urlMatches("example.com/[ab]", "https://example.com/a")).toBe(false)
    expect(urlMatches("example.com/a+", "https://example.com/aa")).toBe(false)
    expect(urlMatches("example.com/a+", "https://example.com/a+")).toBe(true)
  })

  it("treats dot segments in a glob literally; URLs arrive with theirs resolved", () => {
    expect(normalizeUrl("https://example.com/a/./b/../c")).toBe("example.com/a/c")
    expect(urlMatches("example.com/a/../c", "https://example.com/c")).toBe(false)
  })

  it("normalises the URL: host lowercased, userinfo, default port, query and fragment dropped", () => {
    expect(normalizeUrl("HTTPS://User:Pass@Example.COM:443/Path?q=1#f")).toBe("example.com/path")
    expect(normalizeUrl("http://example.com:8080/")).toBe("example.com:8080")
    expect(normalizeUrl("not a url at all \u0000")).toBeUndefined()
  })

  it("matches internationalised hosts and paths the way new URL() encodes them", () => {
    expect(urlMatches("bücher.example/**", "https://BÜCHER.example/x")).toBe(true)
    expect(urlMatches("example.com/문서/*", "https://example.com/문서/1")).toBe(true)
  })

  it("exposes the literal host used for lookup, and none for wildcard hosts", () => {
    expect(compileUrlGlob("https://Docs.Google.com/document/**").literalHost).toBe("docs.google.com")
    expect(compileUrlGlob("*.example.com/**").literalHost).toBeUndefined()
    expect(compileUrlGlob("**/x").literalHost).toBeUndefined()
  })

  it("warns only about hosts that end in a wildcard or globs that start with `**`", () => {
    expect(compileUrlGlob("docs.google.com*/**").warning).toContain("ends in a wildcard")
    expect(compileUrlGlob("docs.google.co?").warning).toContain("ends in a wildcard")
    expect(compileUrlGlob("**").warning).toContain("every host")
    expect(compileUrlGlob("*.google.com/**").warning).toBeUndefined()
    expect(compileUrlGlob("localhost:*/**").warning).toBeUndefined()
  })
})

describe("path globs", () => {
  it("adds `{a,b}` alternatives, nested ones too", () => {
    const glob = compilePathGlob("src/**/*.{ts,{m,c}js}")
    expect(["src/a.ts", "src/x/y.mjs", "src/b.cjs"].every((path) => glob.matches(path))).toBe(true)
    expect(glob.matches("src/a.js")).toBe(false)
  })

  it("keeps a brace without a comma or without a closing brace literal", () => {
    expect(compilePathGlob("a{b}c").matches("a{b}c")).toBe(true)
    expect(compilePathGlob("a{b,c").matches("a{b,c")).toBe(true)
    expect(compilePathGlob("a{b,c").matches("ab")).toBe(false)
  })

  it("is case-sensitive and reads `./` as the repo root", () => {
    expect(compilePathGlob("src/*.ts").matches("SRC/a.ts")).toBe(false)
    expect(compilePathGlob("./src/*.ts").matches("src/a.ts")).toBe(true)
    expect(compilePathGlob("src/*.ts").matches("./src/a.ts")).toBe(true)
  })

  it("never treats a path with a newline as two paths", () => {
    expect(compilePathGlob("*.ts").matches("evil\nx.ts")).toBe(true)
    expect(compilePathGlob("src/*.ts").matches("src/a.ts\n../etc/passwd")).toBe(false)
  })
})
