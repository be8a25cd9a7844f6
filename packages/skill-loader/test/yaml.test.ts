import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { parse, stringify } from "yaml"
import { parseYaml } from "../src/internal/yaml.js"

const FIRST_LINE = 2
const reasonOf = (text: string) => {
  const parsed = parseYaml(text, FIRST_LINE)
  return Result.isFailure(parsed) ? parsed.failure : `parsed ${JSON.stringify(parsed.success)}`
}

// Scalars a YAML writer must quote or a reader could mistype: YAML 1.1 booleans, dates, octals, nulls.
const trickyString = fc.oneof(
  fc.string(),
  fc.constantFrom("yes", "no", "on", "off", "~", "null", "2026-01-01", "0o17", "0x1F", "012", "1e3", ".inf", "-", "- x", "a: b", "#", "*a", "&a", "!tag", "'", '"', "\n", " padded ", "\t", "__proto__", "constructor")
)
const scalar = fc.oneof(trickyString, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null))
const data = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: "small", withCrossShrink: true }, scalar, tie("list"), tie("map")),
  list: fc.array(tie("value"), { maxLength: 4 }),
  map: fc.dictionary(trickyString, tie("value"), { maxKeys: 4 })
})).map
const independentReader = (text: string): unknown => parse(text, { version: "1.2", schema: "core", merge: false, uniqueKeys: true })

describe("parseYaml against an independent YAML implementation", () => {
  it("reads what another library wrote, as that library reads it back", () => {
    fc.assert(
      fc.property(data, (value) => {
        const text = stringify(value)
        const parsed = parseYaml(text, FIRST_LINE)
        expect(parsed).toEqual(Result.succeed(independentReader(text)))
      }),
      { numRuns: 400, seed: 20_261_130 }
    )
  })

  it("agrees with it on damaged documents whenever both accept them", () => {
    const damaged = fc
      .tuple(data.map((value) => stringify(value)), fc.nat(), fc.string({ unit: "binary", maxLength: 6 }))
      .map(([text, at, noise]) => text.slice(0, at % (text.length + 1)) + noise + text.slice(at % (text.length + 1)))
    let bothAccepted = 0
    fc.assert(
      fc.property(damaged, (text) => {
        const ours = parseYaml(text, FIRST_LINE)
        let theirs: unknown
        try {
          theirs = independentReader(text)
        } catch {
          return
        }
        if (Result.isFailure(ours) || text.includes("*") || text.includes("&")) return
        bothAccepted++
        expect(ours.success).toEqual(theirs)
      }),
      { numRuns: 600, seed: 20_261_130 }
    )
    expect(bothAccepted).toBeGreaterThan(100)
  })
})

describe("parseYaml refusals point into the file", () => {
  it.each([
    ["name: a\n\"name\": b", 'invalid YAML: YAML duplicate key "name" at line 3, column 1'],
    ["a: 1\nb: {x: 1, 'x': 2}", 'invalid YAML: YAML duplicate key "x" at line 3, column 11'],
    ["null: a\n~: b", 'invalid YAML: YAML duplicate key "null" at line 3, column 1'],
    ["1: a\n0x1: b", 'invalid YAML: YAML duplicate key "1" at line 3, column 1'],
    ["a: &anchor [1]\nb: [2, *anchor]", "invalid YAML: YAML alias *anchor at line 3, column 8 refused: aliases are not allowed"],
    ["a: 1\n{x: 1}: 2", "invalid YAML: YAML mapping key at line 3, column 1 refused: keys must be scalars"]
  ])("%j", (text, reason) => {
    expect(reasonOf(text)).toBe(reason)
  })

  it.each([
    ["a: !!binary aGVsbG8=", "invalid YAML: unknown scalar tag !<tag:yaml.org,2002:binary> at line 2, column 4"],
    ["a: !!js/function 'return 1'", "invalid YAML: unknown scalar tag !<tag:yaml.org,2002:js/function> at line 2, column 4"],
    ["a: !custom x", "invalid YAML: unknown scalar tag !<!custom> at line 2, column 4"],
    ["a: 1\n---\nb: 2", "invalid YAML: expected a single document in the stream, but found more"]
  ])("refuses tags and extra documents: %j", (text, reason) => {
    expect(reasonOf(text)).toBe(reason)
  })

  it("refuses nesting by indentation past the same depth limit as brackets", () => {
    const indented = Array.from({ length: 100 }, (_, level) => `${" ".repeat(level)}k${level}:`).join("\n")
    expect(reasonOf(indented)).toBe("YAML refused: YAML nested deeper than 64 levels")
    const shallow = Array.from({ length: 60 }, (_, level) => `${" ".repeat(level)}k${level}:`).join("\n")
    expect(reasonOf(shallow)).toMatch(/^parsed /)
  })

  it("reads frontmatter of only blanks and comments as null, which the Schema then refuses", () => {
    expect(parseYaml("# nothing here\n  \n", FIRST_LINE)).toEqual(Result.succeed(null))
    expect(parseYaml("", FIRST_LINE)).toEqual(Result.succeed(null))
  })

  it("keeps __proto__ an own key instead of a prototype", () => {
    const parsed = parseYaml("__proto__: {polluted: true}", FIRST_LINE)
    expect(Result.isSuccess(parsed) && Object.getPrototypeOf(parsed.success)).toBe(Object.prototype)
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined()
  })
})
