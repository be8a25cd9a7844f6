import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { type Armable, arm, compileSkills } from "../src/index.js"
import { requestSpans } from "../src/Request.js"

/** The example browser-drive skill's arming, as `examples/skills/browser-drive/SKILL.md` declares it (the host suite loads that file itself). */
const browserDrive = (): Armable => ({
  name: "browser-drive",
  autoInject: {
    keywords: ["browser", "click", "screenshot", "web page", "website", "브라우저", "浏览器", "ブラウザ"],
    requested: true,
    unless: ["browser history", "browser support", "browser compatibility", "browser extension"],
    url: ["localhost:*/**", "127.0.0.1:*/**"]
  }
})

/** Prompts that ask for a browser to be driven, and prompts that only mention one, labelled by hand. */
const { requests: REQUESTS, mentions: MENTIONS } = JSON.parse(
  readFileSync(join(import.meta.dirname, "..", "..", "..", "examples", "prompts", "browser-drive-intent.json"), "utf8")
) as { readonly requests: ReadonlyArray<string>; readonly mentions: ReadonlyArray<string> }

describe("keywords that count only in a request (autoInject.requested)", () => {
  it("arms the example browser-drive skill on every request of the labelled set and on no mention, directly and through an index", () => {
    const skills = [browserDrive()]
    const index = compileSkills(skills)
    for (const prompt of REQUESTS) {
      expect({ prompt, armed: arm({ skills, prompt }).map(({ name }) => name) }).toEqual({ prompt, armed: ["browser-drive"] })
      expect({ prompt, armed: arm({ skills: index, prompt }).map(({ name }) => name) }).toEqual({ prompt, armed: ["browser-drive"] })
    }
    for (const prompt of MENTIONS) {
      expect({ prompt, armed: arm({ skills, prompt }) }).toEqual({ prompt, armed: [] })
      expect({ prompt, armed: arm({ skills: index, prompt }) }).toEqual({ prompt, armed: [] })
    }
  })

  it("still arms on a page URL: a request is about keywords only", () => {
    expect(arm({ skills: [browserDrive()], prompt: "I read about browser history", url: "http://localhost:3000/reports" })).toEqual([
      { name: "browser-drive", keywords: [], urls: ["localhost:*/**"], paths: [], edits: [] }
    ])
  })

  it("leaves a skill without it arming on any mention, as before", () => {
    const mention = { name: "mention", autoInject: { keywords: ["browser"] } }
    expect(arm({ skills: [mention], prompt: "I read an article about browser history" }).map(({ name }) => name)).toEqual(["mention"])
  })

  it("finds a request from its cue to the end of its sentence, and never across sentences", () => {
    const text = "my browser crashed. can you open the browser? i like it"
    expect(requestSpans(text).map(([start, end]) => text.slice(start, end))).toEqual(["can you open the browser?"])
    expect(requestSpans("open it")).toEqual([[0, 7]])
    expect(requestSpans("i opened it")).toEqual([])
  })
})

describe("keywords silenced by an unless pattern (autoInject.unless)", () => {
  const skills: ReadonlyArray<Armable> = [
    { name: "pdf", autoInject: { keywords: ["pdf"], unless: ["pdf.js"], paths: ["**/*.pdf"] } },
    { name: "other", autoInject: { keywords: ["pdf.js"] } }
  ]

  it("keeps the keywords from arming when an unless pattern is in the prompt, directly and through an index", () => {
    for (const target of [skills, compileSkills(skills)]) {
      expect(arm({ skills: target, prompt: "merge the pdf files" }).map(({ name }) => name)).toEqual(["pdf"])
      expect(arm({ skills: target, prompt: "upgrade pdf.js, the pdf viewer" }).map(({ name }) => name)).toEqual(["other"])
      // Its paths still arm it.
      expect(arm({ skills: target, prompt: "upgrade pdf.js", paths: ["docs/a.pdf"] })).toEqual([
        { name: "pdf", keywords: [], urls: [], paths: ["**/*.pdf"], edits: [] },
        { name: "other", keywords: ["pdf.js"], urls: [], paths: [], edits: [] }
      ])
    }
  })

  it("an unless pattern alone never arms anything", () => {
    expect(arm({ skills: [{ name: "quiet", autoInject: { unless: ["pdf"] } }], prompt: "pdf" })).toEqual([])
    expect(arm({ skills: compileSkills([{ name: "quiet", autoInject: { unless: ["pdf"] } }]), prompt: "pdf" })).toEqual([])
  })
})
