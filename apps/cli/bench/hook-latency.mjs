// `pnpm bench`: how long Claude Code waits for `armory hook claude-code` on every prompt, with 1,000
// skills under the project's `.armory/skills` and a goal open, against a bare `node -e 0` in the same
// run (the cost of starting Node at all). The two are run alternately, ARMORY_BENCH_RUNS times each
// (default 40) after a warm-up call that fills the hook's cache; the target is a p50 within 3x the
// bare start. Also measured once: the first call, which loads the 1,000 skills and writes the cache.
// Prints a table and writes bench-results/hook-latency.json. Needs a build (`pnpm build`) first.
import { spawnSync } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { openGoalStore } from "@armory/goal-store"

const RUNS = Number(process.env.ARMORY_BENCH_RUNS ?? 40)
const SKILLS = 1_000
const bin = join(import.meta.dirname, "..", "dist", "bin.js")

const project = mkdtempSync(join(tmpdir(), "armory-hook-bench-"))
for (let index = 0; index < SKILLS; index++) {
  const directory = join(project, ".armory", "skills", `skill-${index}`)
  mkdirSync(directory, { recursive: true })
  writeFileSync(
    join(directory, "SKILL.md"),
    `---\nname: skill-${index}\ndescription: Skill ${index} helps with topic ${index % 50}, a one-line description of what it is for, as real ones are.\n` +
      `autoInject:\n  keywords: [topic-${index % 50}, keyword-${index}]\n  paths: ['**/*.ext${index}']\n---\n# Skill ${index}\n\nInstructions for skill ${index}.\n`
  )
}
const store = await openGoalStore({ root: join(project, ".armory", "goals") })
await store.set({ objective: "Ship the exporter", criteria: [{ scenario: "exports a pdf", qaChannel: "cli", testRef: "export.test.ts" }] })
await new Promise((resolve) => setTimeout(resolve, 100))

const payload = JSON.stringify({
  session_id: "bench",
  transcript_path: join(project, "transcript.jsonl"),
  cwd: project,
  permission_mode: "default",
  hook_event_name: "UserPromptSubmit",
  prompt: "please work on topic-7 and keyword-123 in the exporter"
})
const env = { ...process.env, CLAUDE_PROJECT_DIR: project }

const timed = (args, input) => {
  const started = process.hrtime.bigint()
  const run = spawnSync(process.execPath, args, { input, env, encoding: "utf8" })
  const ms = Number(process.hrtime.bigint() - started) / 1e6
  return { ms, ok: run.status === 0, stdout: run.stdout }
}

const first = timed([bin, "hook", "claude-code"], payload)
const armed = JSON.parse(first.stdout).hookSpecificOutput.additionalContext
if (!armed.includes("skill-123") || !armed.includes("Ship the exporter")) throw new Error(`the hook did not answer as expected: ${armed}`)

const hook = []
const bare = []
let errors = 0
for (let run = 0; run < RUNS; run++) {
  const ours = timed([bin, "hook", "claude-code"], payload)
  if (!ours.ok || !ours.stdout.includes("skill-123")) errors++
  hook.push(ours.ms)
  bare.push(timed(["-e", "0"], "").ms)
}
rmSync(project, { recursive: true, force: true })

const percentile = (values, p) => {
  const sorted = values.toSorted((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
}
const round = (value) => Number(value.toFixed(1))
const hookP50 = percentile(hook, 50)
const bareP50 = percentile(bare, 50)
const ratio = Number((hookP50 / bareP50).toFixed(2))
const rows = [
  {
    case: `UserPromptSubmit hook, ${SKILLS} skills, cached`,
    oursP50Ms: round(hookP50),
    oursP95Ms: round(percentile(hook, 95)),
    anchorP50Ms: round(bareP50),
    anchor: "node -e 0",
    ratio,
    errors,
    target: "p50 <= 3x node -e 0",
    targetMet: ratio <= 3 && errors === 0
  },
  {
    case: `first call, ${SKILLS} skills (loads them, writes the cache)`,
    oursMs: round(first.ms),
    anchorP50Ms: round(bareP50),
    anchor: "node -e 0",
    ratio: Number((first.ms / bareP50).toFixed(2)),
    errors: first.ok ? 0 : 1,
    target: "none (once per change of the skills)",
    targetMet: first.ok
  }
]

const report = { suite: "hook-latency", anchor: "node -e 0", node: process.version, date: new Date().toISOString(), runs: RUNS, skills: SKILLS, cases: rows }
const outputDir = join(import.meta.dirname, "..", "bench-results")
mkdirSync(outputDir, { recursive: true })
writeFileSync(join(outputDir, "hook-latency.json"), `${JSON.stringify(report, null, 2)}\n`)
for (const row of rows) {
  process.stdout.write(
    `${row.case.padEnd(58)} ours ${String(`${row.oursP50Ms ?? row.oursMs} ms`).padStart(9)}  anchor ${String(`${row.anchorP50Ms} ms`).padStart(9)}  ratio ${row.ratio}  errors ${row.errors}  ${row.targetMet ? "met" : "missed"} (${row.target})\n`
  )
}
