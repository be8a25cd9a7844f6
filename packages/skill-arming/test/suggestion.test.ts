import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { arm, compileSuggestions, suggest } from "../src/index.js"

const skills = [
  { name: "pdf", description: "Extract text and tables from PDF files, fill forms, merge and split documents. Use when working with PDFs." },
  { name: "webapp-testing", description: "Toolkit for interacting with and testing local web applications using Playwright." },
  { name: "xlsx", description: "Create, edit and analyse spreadsheets: formulas, formatting, charts in Excel files." },
  { name: "weather", description: "Get the current weather and forecasts for a city." },
  { name: "korean-summary", description: "긴 문서를 요약하고 핵심을 정리합니다." },
  { name: "translate-zh", description: "把中文文本翻译成英文，保留术语。" },
  { name: "receipts", description: "PDFを読み取り、領収書の金額を集計します。" }
]

const names = (prompt: string, limit?: number) => suggest({ skills, prompt, limit }).map(({ name }) => name)

describe("suggest", () => {
  it("ranks the skill a prompt is about first, with the words that matched", () => {
    const [best] = suggest({ skills, prompt: "make me a pdf of this report" })
    expect(best).toMatchObject({ name: "pdf", terms: ["pdf"] })
    expect(best?.score).toBeGreaterThan(0)
    expect(names("test my web app with playwright")[0]).toBe("webapp-testing")
    expect(names("what's the weather like in Lisbon tomorrow?")[0]).toBe("weather")
  })

  it("meets inflected English words at their stem", () => {
    expect(suggest({ skills, prompt: "merging PDFs" })[0]).toMatchObject({ name: "pdf", terms: ["pdfs", "merging"] })
    expect(names("spreadsheet formula")[0]).toBe("xlsx")
  })

  it("matches scripts written without spaces, full-width letters and words glued to them", () => {
    expect(names("이 보고서를 요약해줘")[0]).toBe("korean-summary")
    expect(names("请帮我翻译这段话")[0]).toBe("translate-zh")
    expect(names("領収書を集計して")[0]).toBe("receipts")
    expect(suggest({ skills, prompt: "ＰＤＦを作って" })[0]).toMatchObject({ name: "pdf", terms: ["pdf"] })
  })

  it("returns nothing when no word of the prompt matches, and never more than the limit", () => {
    expect(suggest({ skills, prompt: "hello there" })).toEqual([])
    expect(suggest({ skills, prompt: "" })).toEqual([])
    expect(names("pdf excel weather playwright", 2)).toHaveLength(2)
    expect(names("pdf excel weather playwright", 0)).toEqual([])
    expect(suggest({ skills: [], prompt: "pdf" })).toEqual([])
  })

  it("arms nothing: a skill it suggests first still does not arm without autoInject", () => {
    const prompt = "make me a pdf of this report"
    expect(names(prompt)[0]).toBe("pdf")
    expect(arm({ skills, prompt })).toEqual([])
  })

  it("gives the same ranking from a compiled index, and breaks ties by the skills' order", () => {
    const index = compileSuggestions(skills)
    expect(suggest({ skills: index, prompt: "test my web app with playwright", limit: 5 })).toEqual(
      suggest({ skills, prompt: "test my web app with playwright", limit: 5 })
    )
    const twins = [
      { name: "first", description: "Render charts." },
      { name: "second", description: "Render charts." }
    ]
    expect(suggest({ skills: twins, prompt: "charts", limit: 5 }).map(({ name }) => name)).toEqual(["first", "second"])
  })

  it("reads the whole prompt: the question after a long paste counts, however many distinct words come first", () => {
    const huge = `${"pdf ".repeat(250_000)}`
    expect(names(huge)[0]).toBe("pdf")
    const distinct = Array.from({ length: 100_000 }, (_, index) => `w${index}`).join(" ")
    expect(suggest({ skills, prompt: `${distinct} weather` })).toEqual([expect.objectContaining({ name: "weather", terms: ["weather"] })])
    const paste = "lorem ipsum dolor sit amet consectetur ".repeat(2_000)
    expect(names(`${paste}\n\nCan you merge these PDFs?`)[0]).toBe("pdf")
    expect(suggest({ skills, prompt: "weather", limit: 1e9 }).length).toBeLessThanOrEqual(100)
  })

  it("separates words at _ and -, and reads an English contraction as its word", () => {
    const automations = [
      { name: "google_maps-automation", description: "Automate places, routes and reviews via Composio." },
      { name: "aws-s3", description: "Manage the user's S3 buckets and objects." }
    ]
    expect(suggest({ skills: automations, prompt: "find a cafe on google maps" })[0]).toMatchObject({ name: "google_maps-automation", terms: ["google", "maps"] })
    expect(suggest({ skills: automations, prompt: "what's next? it's done, isn't it" })).toEqual([])
    expect(suggest({ skills: automations, prompt: "list my s3 buckets" })[0]?.name).toBe("aws-s3")
  })

  it("orders by score and reports only words the prompt holds, for any prompt", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 200 }), fc.array(fc.constantFrom("pdf", "weather", "요약", "翻译", "charts", "Playwright"), { maxLength: 5 }), (noise, words) => {
        const prompt = `${noise} ${words.join(" ")}`
        const results = suggest({ skills, prompt, limit: 7 })
        const normalised = prompt.normalize("NFKC").toLowerCase()
        for (let index = 1; index < results.length; index++) {
          expect((results[index - 1]?.score ?? 0) >= (results[index]?.score ?? 0)).toBe(true)
        }
        for (const { score, terms } of results) {
          expect(score).toBeGreaterThan(0)
          for (const term of terms) expect(normalised).toContain(term)
        }
      }),
      { numRuns: 300 }
    )
  })
})

describe("suggest's evidence floor", () => {
  /** 60 skills: ten mention Next.js, one is about the weather, the rest about other things. */
  const many = Array.from({ length: 60 }, (_, index) => ({
    name: index === 0 ? "weather" : `tool-${index}`,
    description:
      index === 0 ? "Current weather and forecasts for a city." : index <= 10 ? `Configure the next build of project ${index}.` : `Handle chore number ${index} for the team.`
  }))

  it("leaves a prompt that shares only a generic word with a few skills without a suggestion, and still suggests a rare word's skill", () => {
    expect(suggest({ skills: many, prompt: "what's next?" })).toEqual([])
    expect(suggest({ skills: many, prompt: "what's the weather in Lisbon?" }).map(({ name }) => name)).toEqual(["weather"])
    expect(suggest({ skills: many, prompt: "what's next?", minEvidence: 0 }).length).toBeGreaterThan(0)
  })

  it("does not apply to a set smaller than the floor's minimum", () => {
    expect(suggest({ skills: many.slice(0, 12), prompt: "what's next?" }).length).toBeGreaterThan(0)
  })
})
