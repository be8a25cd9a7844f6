import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { MAX_RESULT_TEXT_CHARS, resultText } from "../src/index.js"

describe("resultText", () => {
  it("is the JSON of the whole answer when it fits", () => {
    const answer = { rows: [{ id: 1, name: "a" }], note: "ok" }
    expect(JSON.parse(resultText(answer))).toEqual(answer)
    expect(resultText("Fixture page")).toBe('"Fixture page"')
    expect(resultText(undefined)).toBe("null")
  })

  it("summarises an answer over the budget as JSON, each cut marked, never cut inside a value", () => {
    const rows = Array.from({ length: 500 }, (_, index) => ({ id: index, title: `row ${index} `.repeat(20), tags: ["a", "b"] }))
    const text = resultText({ rows, total: 500 })
    expect(text.length).toBeLessThanOrEqual(MAX_RESULT_TEXT_CHARS)
    const summary = JSON.parse(text) as { _truncated: string; summary: { rows: Array<unknown>; total: number } }
    expect(summary._truncated).toMatch(/^a summary of a \d+-character answer/)
    expect(summary.summary.total).toBe(500)
    expect(summary.summary.rows.length).toBeGreaterThan(17)
    expect(summary.summary.rows.at(-1)).toMatch(/^… \(\d+ more items\)$/)
  })

  it("stays within the budget and parses for any JSON value, however deep, wide or long", () => {
    const hostile = [
      "x".repeat(1_000_000),
      Array.from({ length: 100_000 }, (_, index) => index),
      Object.fromEntries(Array.from({ length: 50_000 }, (_, index) => [`k${index}`, index])),
      JSON.parse(`${"[".repeat(5_000)}${"]".repeat(5_000)}`) as unknown
    ]
    for (const value of hostile) {
      const text = resultText(value, 2_000)
      expect(text.length).toBeLessThanOrEqual(2_000)
      expect(() => JSON.parse(text)).not.toThrow()
    }
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.integer({ min: 300, max: 5_000 }), (value, budget) => {
        const text = resultText(value, budget)
        expect(text.length).toBeLessThanOrEqual(budget)
        const whole = JSON.stringify(value)
        const parsed = JSON.parse(text) as unknown
        // Whole when it fits, a marked summary when it does not.
        const summarised = typeof parsed === "object" && parsed !== null && "_truncated" in parsed
        expect(summarised).toBe(whole.length > budget)
        expect(summarised ? whole : JSON.stringify(parsed)).toBe(whole)
      }),
      { numRuns: 300 }
    )
  })
})
