import { describe, expect, it } from "vitest"
import { skillNameCompletion } from "../src/McpResources.js"

describe("skillNameCompletion", () => {
  it("answers at most 100 names, sorted, with the full count and hasMore past the cap", () => {
    const names = Array.from({ length: 250 }, (_, index) => `skill-${String(index).padStart(3, "0")}`)
    const all = skillNameCompletion(names.toReversed(), "SKILL-")
    expect(all.completion.values).toHaveLength(100)
    expect(all.completion.values[0]).toBe("skill-000")
    expect(all.completion).toMatchObject({ total: 250, hasMore: true })
    expect(skillNameCompletion(names, "skill-24").completion).toEqual({ values: Array.from({ length: 10 }, (_, index) => `skill-24${index}`), total: 10, hasMore: false })
  })
})
