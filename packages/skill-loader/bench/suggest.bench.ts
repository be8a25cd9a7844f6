import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { runBench } from "@armory/bench"
import { compileSuggestions, suggest } from "@armory/skill-arming"
import { loadSkills, type SkillInfo } from "@armory/skill-loader"
import MiniSearch from "minisearch"
import { readCollections, writeCollections } from "../test/corpus/realSkills.ts"

interface LabelledPrompt {
  readonly prompt: string
  readonly expected: ReadonlyArray<string>
}

const { prompts } = JSON.parse(readFileSync(new URL("./suggest-prompts.json", import.meta.url), "utf8")) as { prompts: ReadonlyArray<LabelledPrompt> }

const collections = readCollections()
const root = mkdtempSync(join(tmpdir(), "skill-suggest-bench-"))
let skills: ReadonlyArray<SkillInfo>
try {
  skills = (await loadSkills(writeCollections(root, collections))).skills
} finally {
  rmSync(root, { recursive: true, force: true })
}

/** The anchor: MiniSearch's BM25+ over the same two fields, the name weighted as ours is. */
const miniSearchOver = (documents: ReadonlyArray<{ readonly name: string; readonly description: string }>) => {
  const search = new MiniSearch<{ readonly id: number; readonly name: string; readonly description: string }>({
    fields: ["name", "description"],
    storeFields: ["name"],
    searchOptions: { boost: { name: 3 }, combineWith: "OR" }
  })
  search.addAll(documents.map(({ name, description }, id) => ({ id, name: name.replace(/-/g, " "), description })))
  return (prompt: string, limit: number): ReadonlyArray<string> =>
    search.search(prompt).slice(0, limit).map((result) => documents[result.id as number]?.name as string)
}

// On the labelled prompts, both rankers over the same real skills: how often the expected skill comes
// first and within the first three, and how often a prompt no skill fits is left without a suggestion.
const ourIndex = compileSuggestions(skills)
const anchorSearch = miniSearchOver(skills)
const outcomes = prompts.map(({ prompt, expected }) => {
  const ours = suggest({ skills: ourIndex, prompt, limit: 3 }).map(({ name }) => name)
  const anchor = anchorSearch(prompt, 3)
  return { prompt, expected, ours, anchor }
})
const withSkill = outcomes.filter((outcome) => outcome.expected.length > 0)
const withoutSkill = outcomes.filter((outcome) => outcome.expected.length === 0)
const share = (count: number, of: number) => (of === 0 ? 0 : count / of)
const top1 = (key: "ours" | "anchor") => share(withSkill.filter((outcome) => outcome.expected.includes(outcome[key][0] ?? "")).length, withSkill.length)
const top3 = (key: "ours" | "anchor") => share(withSkill.filter((outcome) => outcome[key].some((name) => outcome.expected.includes(name))).length, withSkill.length)
const leftEmpty = (key: "ours" | "anchor") => share(withoutSkill.filter((outcome) => outcome[key].length === 0).length, withoutSkill.length)
const percent = (value: number) => `${(value * 100).toFixed(1)}%`
const row = (label: string, measure: (key: "ours" | "anchor") => number) =>
  `${label.padEnd(34)} ours ${percent(measure("ours")).padStart(6)}  anchor (MiniSearch 7, BM25+) ${percent(measure("anchor")).padStart(6)}\n`
process.stdout.write(`skill suggestions: ${prompts.length} labelled prompts (${withSkill.length} with a skill, ${withoutSkill.length} without) over ${skills.length} real skills\n`)
process.stdout.write(row("top-1 accuracy", top1))
process.stdout.write(row("top-3 accuracy", top3))
process.stdout.write(row("no-skill prompts left empty", leftEmpty))
for (const { prompt, expected, ours } of outcomes) {
  if (expected.length > 0 && !expected.includes(ours[0] ?? "")) process.stdout.write(`  missed: ${JSON.stringify(prompt)} expected ${expected.join("|")}, got ${ours.join(", ") || "nothing"}\n`)
  if (expected.length === 0 && ours.length > 0) process.stdout.write(`  suggested for a no-skill prompt: ${JSON.stringify(prompt)} got ${ours.join(", ")}\n`)
}
const accuracyFile = join(process.cwd(), "../../bench-results/skill-suggest-accuracy.json")
writeFileSync(
  accuracyFile,
  `${JSON.stringify(
    {
      suite: "skill-suggest-accuracy",
      skills: skills.length,
      prompts: prompts.length,
      top1: { ours: top1("ours"), anchor: top1("anchor") },
      top3: { ours: top3("ours"), anchor: top3("anchor") },
      noSkillLeftEmpty: { ours: leftEmpty("ours"), anchor: leftEmpty("anchor") },
      node: process.version,
      date: new Date().toISOString(),
      outcomes
    },
    null,
    2
  )}\n`
)
process.stdout.write(`wrote ${accuracyFile}\n\n`)

// Speed: 10,000 skills (the real ones, repeated under new names) and a 2 KB prompt.
const SKILL_COUNT = 10_000
const many = Array.from({ length: SKILL_COUNT }, (_, index) => {
  const skill = skills[index % skills.length] as SkillInfo
  return { name: `${skill.name}-${Math.floor(index / skills.length)}`, description: skill.description }
})
let prompt = ""
for (let index = 0; prompt.length < 2048; index++) prompt += `${prompts[index % prompts.length]?.prompt} `
prompt = prompt.slice(0, 2048)
const manyIndex = compileSuggestions(many)
const manyAnchor = miniSearchOver(many)

await runBench({
  name: "skill-suggest",
  anchor: "MiniSearch 7 (BM25+), same fields and name boost",
  timeMs: 3000,
  cases: [
    {
      name: `suggest over ${SKILL_COUNT} skills, 2 KB prompt`,
      ours: () => suggest({ skills: manyIndex, prompt, limit: 3 }),
      anchor: () => manyAnchor(prompt, 3),
      target: { medianMs: 5 }
    }
  ]
})
