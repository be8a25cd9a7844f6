import { readFileSync } from "node:fs"
import { join } from "node:path"
import { loadSkills } from "@armory/skill-loader"
import { describe, expect, it } from "vitest"
import { armForHook } from "../src/hooks.js"

const examples = join(import.meta.dirname, "..", "..", "..", "examples")

describe("the example browser-drive skill, loaded from its SKILL.md, in a hook", () => {
  it("arms on every request of the labelled set and on no passing mention", async () => {
    const report = await loadSkills([join(examples, "skills")])
    const skills = report.skills.map(({ name, location, autoInject }) => ({ name, location, ...(autoInject === undefined ? {} : { autoInject }) }))
    expect(skills.find(({ name }) => name === "browser-drive")?.autoInject).toMatchObject({ requested: true, unless: expect.arrayContaining(["browser history"]) })
    const { requests, mentions } = JSON.parse(readFileSync(join(examples, "prompts", "browser-drive-intent.json"), "utf8")) as {
      readonly requests: ReadonlyArray<string>
      readonly mentions: ReadonlyArray<string>
    }
    const armsBrowser = (prompt: string) => armForHook(skills, { prompt }).some(({ name }) => name === "browser-drive")
    expect(requests.filter((prompt) => !armsBrowser(prompt))).toEqual([])
    expect(mentions.filter(armsBrowser)).toEqual([])
  })
})
