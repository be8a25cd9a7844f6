import { runBench } from "@armory/bench"
import { type Armable, arm, compileSkills } from "@armory/skill-arming"

/** A deterministic skill set: 3 keywords (one shared by many skills) and 1 URL glob each. */
const makeSkills = (count: number): ReadonlyArray<Armable> =>
  Array.from({ length: count }, (_, index) => ({
    name: `skill-${index}`,
    autoInject: {
      keywords: [`topic${index}`, `tool${index % 997}x`, `area${index % 53}`],
      url: [`site${index % 4000}.example.com/section${index}/**`]
    }
  }))

const makePrompt = (): string => {
  const words = ["please", "open", "the", "report", "and", "summarise", "topic12", "area7", "with", "tool5x", "notes"]
  let prompt = ""
  for (let index = 0; prompt.length < 2048; index++) prompt += `${words[index % words.length]} `
  return prompt.slice(0, 2048)
}

const escapeRegExp = (text: string) => text.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&")

/** What a host writes without an index: one RegExp per keyword and glob, tested skill by skill. */
const naiveMatcher = (skills: ReadonlyArray<Armable>) => {
  const compiled = skills.map((skill) => ({
    name: skill.name,
    keywords: (skill.autoInject?.keywords ?? []).map((keyword) => new RegExp(`\\b${escapeRegExp(keyword)}\\b`, "i")),
    urls: (skill.autoInject?.url ?? []).map(
      (glob) => new RegExp(`^${escapeRegExp(glob).replace(/\\\*\\\*/g, ".*").replace(/\\\*/g, "[^/]*")}$`, "i")
    )
  }))
  return (prompt: string, url: string) =>
    compiled
      .filter((skill) => skill.keywords.some((pattern) => pattern.test(prompt)) || skill.urls.some((pattern) => pattern.test(url)))
      .map((skill) => skill.name)
}

const prompt = makePrompt()
const url = "https://site12.example.com/section12/page"
const urlSubject = "site12.example.com/section12/page"

const armCase = (count: number, target: { medianMs: number; ratio?: number }) => {
  const skills = makeSkills(count)
  const index = compileSkills(skills)
  const naive = naiveMatcher(skills)
  return {
    name: `arm, ${count.toLocaleString("en")} skills, 2 KB prompt`,
    ours: () => arm({ skills: index, prompt, url }),
    anchor: () => naive(prompt, urlSubject),
    target
  }
}

const tenThousand = makeSkills(10_000)

await runBench({
  name: "skill-arming",
  anchor: "a per-skill RegExp loop (keywords as \\b…\\b, globs as RegExp)",
  timeMs: 2000,
  cases: [
    armCase(1_000, { medianMs: 0.5 }),
    armCase(10_000, { medianMs: 2 }),
    armCase(100_000, { medianMs: 10, ratio: 50 }),
    {
      name: "compileSkills, 10,000 skills (anchor: building the RegExps)",
      ours: () => compileSkills(tenThousand),
      anchor: () => naiveMatcher(tenThousand),
      target: { medianMs: 100 }
    }
  ]
})
