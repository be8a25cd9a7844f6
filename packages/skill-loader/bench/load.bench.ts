import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { readdir, readFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { runBench } from "@armory/bench"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import { load, loadSkills, MAX_SKILL_FILE_BYTES, SkillFrontmatter } from "@armory/skill-loader"
import { Effect, Layer, Logger, Result, Schema } from "effect"
import matter from "gray-matter"
import { readCollections, writeCollections } from "../test/corpus/realSkills.ts"

const collections = readCollections()
const FILE_COUNT = collections.reduce((count, { files }) => count + files.length, 0)
const root = mkdtempSync(join(tmpdir(), "skill-loader-bench-"))
const sources = writeCollections(root, collections)

const decodeFrontmatter = Schema.decodeUnknownResult(SkillFrontmatter, { errors: "all" })

/**
 * The same work the common way: walk, read, gray-matter (js-yaml), decode with the same Schema.
 * gray-matter throws on YAML it cannot parse, which costs that document only.
 */
const grayMatterLoad = async (directories: ReadonlyArray<string>) => {
  let loaded = 0
  let seen = 0
  for (const directory of directories) {
    const files = (await readdir(directory, { recursive: true }))
      .filter((file) => file === "SKILL.md" || file.endsWith("/SKILL.md"))
      .toSorted()
    const texts = await Promise.all(files.map((file) => readFile(join(directory, file), "utf8")))
    for (const text of texts) {
      seen++
      try {
        // An options argument keeps gray-matter from answering repeated inputs out of its cache.
        if (Result.isSuccess(decodeFrontmatter(matter(text, {}).data))) loaded++
      } catch {
        // A document gray-matter cannot parse is skipped, as the loader drops it.
      }
    }
  }
  if (seen !== FILE_COUNT) throw new Error(`gray-matter loader read ${seen} of ${FILE_COUNT} files`)
  return loaded
}

const armoryLoad = async (directories: ReadonlyArray<string>) => {
  const report = await loadSkills(directories)
  const accounted = report.skills.length + report.dropped.length + report.shadowed.length
  if (accounted !== FILE_COUNT) throw new Error(`loadSkills accounted for ${accounted} of ${FILE_COUNT} files`)
  return report
}

try {
  await runBench({
    name: "skill-loader",
    anchor: "gray-matter 4 (js-yaml) + the same Schema decode",
    timeMs: 3000,
    cases: [
      {
        name: `load ${FILE_COUNT} real SKILL.md`,
        ours: () => armoryLoad(sources),
        anchor: () => grayMatterLoad(sources),
        target: { medianMs: 150, ratio: 1.2 }
      }
    ]
  })
} finally {
  rmSync(root, { recursive: true, force: true })
}

// Hostile documents have no anchor worth running (gray-matter would expand the alias bomb and
// execute the ---js frontmatter), so each is timed alone: one directory, one load, median of many.
const HOSTILE_BUDGET_MS = 50
const HOSTILE_RUNS = 25
const frontmatter = (extra: string) => `---\nname: hostile\ndescription: Hostile.\n${extra}\n---\n`
const aliasLevels = ["a", "b", "c", "d", "e", "f", "g", "h", "i"]
const hostileCases: ReadonlyArray<readonly [string, (directory: string) => void]> = [
  ["alias bomb (billion laughs)", (directory) => writeSkill(directory, frontmatter(aliasLevels
    .map((level, index) => (index === 0 ? `a: &a [${Array(9).fill('"lol"').join(",")}]` : `${level}: &${level} [${Array(9).fill(`*${aliasLevels[index - 1]}`).join(",")}]`))
    .join("\n")))],
  ["10k-deep flow nesting", (directory) => writeSkill(directory, frontmatter(`x: ${"[".repeat(10_000)}${"]".repeat(10_000)}`))],
  ["10k-deep compact nesting", (directory) => writeSkill(directory, frontmatter(`x:\n${"- ".repeat(10_000)}x`))],
  ["510 keys (at the entry bound)", (directory) => writeSkill(directory, frontmatter(Array.from({ length: 507 }, (_, index) => `k${index}: 1`).join("\n")))],
  ["deepest indentation in 64 KiB", (directory) => writeSkill(directory, frontmatter(Array.from({ length: 250 }, (_, index) => `${" ".repeat(index)}k${index}:`).join("\n")))],
  ["frontmatter over 64 KiB", (directory) => writeSkill(directory, frontmatter(`x: "${"p".repeat(70_000)}"`))],
  ["file over 1 MiB", (directory) => writeSkill(directory, frontmatter("") + "b".repeat(MAX_SKILL_FILE_BYTES))],
  ["invalid UTF-8", (directory) => writeSkill(directory, new Uint8Array([...new TextEncoder().encode(frontmatter("x: ")), 0xff, 0xfe]))],
  ["binary file", (directory) => writeSkill(directory, new Uint8Array(4096).fill(0))],
  ["missing closing ---", (directory) => writeSkill(directory, "---\nname: hostile\ndescription: Hostile.\n" + "line\n".repeat(100_000))],
  ["---js frontmatter", (directory) => writeSkill(directory, '---js\n({ name: require("child_process").execSync("id") })\n---\n')],
  ["symlink loop", (directory) => {
    mkdirSync(join(directory, "loop"), { recursive: true })
    symlinkSync(directory, join(directory, "loop/back"))
  }],
  ["dangling symlink", (directory) => symlinkSync(join(directory, "nowhere"), join(directory, "SKILL.md"))]
]

function writeSkill(directory: string, content: string | Uint8Array): void {
  mkdirSync(dirname(join(directory, "SKILL.md")), { recursive: true })
  writeFileSync(join(directory, "SKILL.md"), content)
}

const silentNode = Layer.mergeAll(NodeFileSystem.layer, NodePath.layer, Logger.layer([]))
const hostileRoot = mkdtempSync(join(tmpdir(), "skill-loader-hostile-"))
try {
  const rows: Array<{ case: string; medianMs: number; maxMs: number; outcome: string }> = []
  for (const [name, setUp] of hostileCases) {
    const directory = join(hostileRoot, String(rows.length))
    mkdirSync(directory)
    setUp(directory)
    const timings: Array<number> = []
    let outcome = ""
    for (let run = 0; run < HOSTILE_RUNS; run++) {
      const started = performance.now()
      const report = await Effect.runPromise(load([directory]).pipe(Effect.provide(silentNode)))
      timings.push(performance.now() - started)
      outcome = report.dropped[0]?.reason ?? (report.skills.length > 0 ? "loaded" : "nothing found")
    }
    timings.sort((a, b) => a - b)
    rows.push({ case: name, medianMs: timings[Math.floor(HOSTILE_RUNS / 2)] as number, maxMs: timings.at(-1) as number, outcome })
  }
  const width = Math.max(...rows.map((row) => row.case.length))
  process.stdout.write(`\nskill-loader hostile input: one load per case, ${HOSTILE_RUNS} runs, budget ${HOSTILE_BUDGET_MS} ms\n`)
  for (const row of rows) {
    const verdict = row.medianMs <= HOSTILE_BUDGET_MS ? "met" : "MISSED"
    process.stdout.write(`${row.case.padEnd(width)}  median ${row.medianMs.toFixed(2).padStart(6)} ms  max ${row.maxMs.toFixed(2).padStart(6)} ms  ${verdict}  ${row.outcome.slice(0, 70)}\n`)
  }
  const outputFile = join(process.cwd(), "../../bench-results/skill-loader-hostile.json")
  writeFileSync(outputFile, `${JSON.stringify({ suite: "skill-loader-hostile", budgetMs: HOSTILE_BUDGET_MS, node: process.version, date: new Date().toISOString(), cases: rows }, null, 2)}\n`)
  process.stdout.write(`wrote ${outputFile}\n`)
} finally {
  rmSync(hostileRoot, { recursive: true, force: true })
}
