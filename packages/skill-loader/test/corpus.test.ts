import { describe, expect, it } from "@effect/vitest"
import { findSkill, loadSkills } from "../src/index.js"
import { readCollections, writeCollections } from "./corpus/realSkills.ts"
import { temporaryDirectory } from "./support.js"

/** What kind of outcome a reason is, in words that stay the same from one file to the next. */
const CLASSES: ReadonlyArray<readonly [string, RegExp]> = [
  ["no frontmatter", /^no frontmatter:/],
  ["frontmatter not closed, read line by line", /^frontmatter not closed: .*: name and description read line by line/],
  ["invalid YAML, read line by line", /^invalid YAML: .*: name and description read line by line/],
  ["described by its first line", /^no description: described by its first line/],
  ["carried field of the wrong kind", /^Agent Skills fields of the wrong kind/],
  ["name gives no id, folder's used", /^name "[^"]+" gives no Agent Skills name/],
  ["refused YAML", /^invalid YAML: .* refused: /],
  ["invalid name", /^frontmatter rejected: at \["name"\]: Expected lowercase letters/],
  ["missing field", /^frontmatter rejected: at \["(name|description)"\]: Missing key/],
  ["other field rejected", /^frontmatter rejected:/],
  ["invalid YAML", /^invalid YAML:/],
  ["name does not match directory", /^name "[^"]+" does not match its directory/],
  ["metadata kept as text", /^metadata values kept as text/],
  ["quoted plain value recovered", /^YAML recovered: the plain value of/],
  ["name declared again in one source", /^name "[^"]+" is declared again by /],
  ["name kept under its id", /^name "[^"]+" is not an Agent Skills name .*: loaded as "[a-z0-9-]+", as the hosts load it$/],
  ["folder's name used", /^no name: loaded as "[a-z0-9-]+", its folder's name/]
]

const classify = (reason: string): string => CLASSES.find(([, pattern]) => pattern.test(reason))?.[0] ?? `unclassified: ${reason}`

const tally = (reasons: ReadonlyArray<string>): Record<string, number> => {
  const counts: Record<string, number> = {}
  for (const reason of reasons) counts[classify(reason)] = (counts[classify(reason)] ?? 0) + 1
  return counts
}

describe("real skill collections", () => {
  it("loads a sample of three public collections with the counts per outcome they give, keeping every skill the hosts list", async () => {
    const collections = readCollections()
    expect(collections.map(({ repo, files }) => [repo, files.length])).toEqual([
      ["openclaw/skills", 886],
      ["AgentWorkers/skills", 100],
      ["obra/superpowers", 14]
    ])
    const directories = writeCollections(temporaryDirectory(), collections)
    const report = await loadSkills(directories.map((path, index) => ({ path, name: collections[index]?.repo.split("/")[0] as string })))

    expect({
      loaded: report.skills.length,
      dropped: report.dropped.length,
      shadowed: report.shadowed.length,
      ignoredAutoInject: report.ignoredAutoInject.length
    }).toEqual({ loaded: 952, dropped: 1, shadowed: 47, ignoredAutoInject: 0 })
    // Claude Code lists every other one (a document without frontmatter, with frontmatter that is not
    // YAML or never closed, without a name or a description); only YAML refused on purpose is dropped.
    expect(tally(report.dropped.map(({ reason }) => reason))).toEqual({ "refused YAML": 1 })
    // Recovered leniently, or loaded as written but worth an author's attention: `skills check` fails on each.
    expect(tally(report.warnings.map(({ reason }) => reason))).toEqual({
      "metadata kept as text": 315,
      "name does not match directory": 186,
      "name declared again in one source": 40,
      "quoted plain value recovered": 17,
      // Loaded as Claude Code and OpenCode load them, where the Agent Skills rule alone would drop them.
      "name kept under its id": 28,
      "folder's name used": 62,
      "name gives no id, folder's used": 1,
      "no frontmatter": 58,
      "frontmatter not closed, read line by line": 2,
      "invalid YAML, read line by line": 16,
      "described by its first line": 61,
      "carried field of the wrong kind": 2
    })
    // A clash across sources (the translated collection repeats names of the original, and two
    // superpowers skills share a name with a community one) keeps the
    // later skill reachable by its address.
    const across = report.shadowed.filter(({ address }) => !address.startsWith("openclaw:"))
    expect(across.map(({ address }) => address.split(":")[0])).toEqual(["AgentWorkers", "AgentWorkers", "AgentWorkers", "AgentWorkers", "AgentWorkers", "obra", "obra"])
    for (const { address, skill } of across) expect(findSkill(report, address)).toBe(skill)
    // Every file is accounted for exactly once.
    expect(report.skills.length + report.dropped.length + report.shadowed.length).toBe(1000)
  })
})
