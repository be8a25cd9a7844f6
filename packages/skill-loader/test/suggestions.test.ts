import { readFileSync } from "node:fs"
import { compileSuggestions, suggest } from "@armory/skill-arming"
import { describe, expect, it } from "vitest"
import { loadSkills } from "../src/index.js"
import { writeCollections } from "./corpus/realSkills.ts"
import { temporaryDirectory } from "./support.js"

interface LabelledPrompt {
  readonly prompt: string
  readonly expected: ReadonlyArray<string>
}

const { prompts } = JSON.parse(readFileSync(new URL("../bench/suggest-prompts.json", import.meta.url), "utf8")) as { prompts: ReadonlyArray<LabelledPrompt> }

describe("suggestions over the real skills, on the labelled prompts", () => {
  it("puts the expected skill first for most prompts about a skill, and leaves most prompts no skill fits without a suggestion", async () => {
    const { skills } = await loadSkills(writeCollections(temporaryDirectory()))
    const index = compileSuggestions(skills)
    const withSkill = prompts.filter(({ expected }) => expected.length > 0)
    const withoutSkill = prompts.filter(({ expected }) => expected.length === 0)
    expect(withSkill.length).toBeGreaterThanOrEqual(40)
    expect(withoutSkill.length).toBeGreaterThanOrEqual(20)
    const answers = (minEvidence?: number) => prompts.map(({ prompt }) => suggest({ skills: index, prompt, limit: 3, ...(minEvidence === undefined ? {} : { minEvidence }) }).map(({ name }) => name))
    const measure = (names: ReadonlyArray<ReadonlyArray<string>>) => ({
      top1: prompts.filter(({ expected }, at) => expected.length > 0 && expected.includes(names[at]?.[0] ?? "")).length / withSkill.length,
      top3: prompts.filter(({ expected }, at) => expected.length > 0 && (names[at] ?? []).some((name) => expected.includes(name))).length / withSkill.length,
      leftEmpty: prompts.filter(({ expected }, at) => expected.length === 0 && (names[at] ?? []).length === 0).length / withoutSkill.length
    })
    const measured = measure(answers())
    expect(measured.top1).toBeGreaterThanOrEqual(0.8)
    expect(measured.top3).toBeGreaterThanOrEqual(0.88)
    expect(measured.leftEmpty).toBeGreaterThanOrEqual(0.7)
    // The threshold is what leaves them empty: without it nearly every prompt gets something.
    expect(measure(answers(0)).leftEmpty).toBeLessThan(0.3)
  })
})
