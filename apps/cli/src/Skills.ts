import { compileSuggestions, suggest } from "@armory/skill-arming"
import { catalogResult, findSkill, load, type LoadReport, readSkill } from "@armory/skill-loader"
import { Console, Effect } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { CommandFailed, invalidUsage } from "./internal/CommandFailed.js"
import { problemLines, problemSummary, renderSkillTable } from "./internal/LoadReportView.js"
import { renderTable } from "./internal/Table.js"
import { skillSources } from "@armory/host"
import { checkSkillDirs, dirsFlag } from "./internal/SkillSources.js"

const jsonFlag = Flag.Boolean("json").pipe(Flag.withDefault(false), Flag.withDescription("print one JSON object"))

/** Loads the given skill roots, or the default ones; a named root that is not there is a usage error. */
export const loadRoots = (dirs: ReadonlyArray<string>) => checkSkillDirs(dirs).pipe(Effect.andThen(load(skillSources(dirs))))

const bodiesFlag = Flag.Boolean("bodies").pipe(
  Flag.withDefault(false),
  Flag.withDescription("with --json: include each skill's Markdown body (left out by default)")
)

/** The report without the Markdown bodies, which dwarf everything else in it. */
const withoutBodies = (report: LoadReport) => ({
  ...report,
  skills: report.skills.map(({ body: _body, ...skill }) => skill),
  shadowed: report.shadowed.map(({ skill: { body: _body, ...skill }, ...entry }) => ({ ...entry, skill }))
})

const showReport = Effect.fn("showReport")(function* (dirs: ReadonlyArray<string>, json: boolean, bodies: boolean) {
  const report = yield* loadRoots(dirs)
  if (json) {
    yield* Console.log(JSON.stringify(bodies ? report : withoutBodies(report)))
  } else {
    yield* Console.log(
      [
        `${report.skills.length} skill${report.skills.length === 1 ? "" : "s"} loaded`,
        ...(report.skills.length === 0 ? [] : [renderSkillTable(report.skills)]),
        ...problemLines(report)
      ].join("\n")
    )
  }
  return report
})

const listCommand = Command.make("list", { dirs: dirsFlag, json: jsonFlag, bodies: bodiesFlag }, ({ dirs, json, bodies }) =>
  showReport(dirs, json, bodies).pipe(Effect.asVoid)
).pipe(
  Command.withShortDescription("List loaded skills, then what was dropped, ignored or shadowed and why"),
  Command.withDescription(
    "Load every SKILL.md under the skill roots and list name, description, triggers and location,\n" +
      "then each dropped document, ignored autoInject block and shadowed name with its reason.\n" +
      "Exit codes: 0 always after a load (problems are reported, not failures)."
  )
)

const checkCommand = Command.make("check", { dirs: dirsFlag, json: jsonFlag, bodies: bodiesFlag }, ({ dirs, json, bodies }) =>
  Effect.gen(function* () {
    const report = yield* showReport(dirs, json, bodies)
    const problems = report.dropped.length + report.ignoredAutoInject.length + report.warnings.length
    if (problems > 0) {
      return yield* new CommandFailed({
        message: `${report.dropped.length} dropped, ${report.ignoredAutoInject.length} autoInject blocks ignored, ${report.warnings.length} warnings`
      })
    }
  })
).pipe(
  Command.withShortDescription("Like list, but exit 1 when a document was dropped, an autoInject ignored or a skill warned about"),
  Command.withDescription(
    "The same report as `skills list`, for a CI step in a skills repository.\n" +
      "Exit codes: 0 every document loaded as written, 1 something was dropped or ignored, or a loaded skill\n" +
      "has a warning (its name does not match its directory, a risky glob)."
  )
)

const catalogCommand = Command.make(
  "catalog",
  {
    dirs: dirsFlag,
    maxChars: Flag.Int("max-chars").pipe(Flag.withDefault(8000), Flag.withDescription("the most characters the block may take (default 8000)"))
  },
  Effect.fn("skillsCatalog")(function* ({ dirs, maxChars }) {
    const report = yield* loadRoots(dirs)
    const block = yield* Effect.fromResult(catalogResult(report, { maxChars })).pipe(
      Effect.mapError((refusal) => invalidUsage(`--max-chars ${maxChars}: ${refusal.message}`))
    )
    yield* Console.log(block.trimEnd())
  })
).pipe(
  Command.withShortDescription("Print the <available_skills> block a host puts in the model's context"),
  Command.withDescription(
    "The rule for choosing a skill, then every skill's name, description and location (skills a root\n" +
      "shadows by their address), within --max-chars: descriptions are shortened first, then skills left out,\n" +
      "and a last line says so.\n" +
      "Exit codes: 0 printed, 2 invalid usage (a budget too small for one entry, or negative)."
  )
)

const showCommand = Command.make(
  "show",
  {
    name: Argument.String("name").pipe(Argument.withDescription("a skill's name, or its address <root>:<name>")),
    dirs: dirsFlag,
    json: jsonFlag
  },
  Effect.fn("skillsShow")(function* ({ name, dirs, json }) {
    const report = yield* loadRoots(dirs)
    const skill = findSkill(report, name)
    if (skill === undefined) {
      return yield* new CommandFailed({ message: `no skill named ${JSON.stringify(name)} is loaded (${report.skills.length} are; \`armory skills list\` shows them)` })
    }
    const contents = yield* Effect.promise(() => readSkill(skill))
    if (json) {
      yield* Console.log(JSON.stringify({ ...contents, address: skill.address }))
      return
    }
    yield* Console.log(
      [
        `${skill.name} (${skill.address})`,
        skill.description,
        `location: ${skill.location}`,
        ...(contents.files.length === 0
          ? []
          : [`files${contents.truncated ? " (listing truncated)" : ""}:`, ...contents.files.map(({ path, bytes }) => `  ${path} (${bytes} bytes)`)]),
        "",
        contents.body.trimEnd()
      ].join("\n")
    )
  })
).pipe(
  Command.withShortDescription("Print a skill's instructions and the files beside it"),
  Command.withDescription(
    "Find a skill by name (or by address, for one another root shadows) and print its description,\n" +
      "location, the files in its directory and its Markdown body.\n" +
      "Exit codes: 0 printed, 1 no such skill, 2 invalid usage."
  )
)

const suggestCommand = Command.make(
  "suggest",
  {
    prompt: Argument.String("prompt").pipe(Argument.withDescription("the user's prompt")),
    limit: Flag.Int("limit").pipe(Flag.withDefault(3), Flag.withDescription("the most suggestions (1-100, default 3)")),
    dirs: dirsFlag,
    json: jsonFlag
  },
  Effect.fn("skillsSuggest")(function* ({ prompt, limit, dirs, json }) {
    if (limit < 1 || limit > 100) return yield* invalidUsage(`--limit ${limit}: expected 1 to 100`)
    const report = yield* loadRoots(dirs)
    const suggestions = suggest({ skills: compileSuggestions(report.skills), prompt, limit })
    if (json) {
      yield* Console.log(JSON.stringify({ suggestions, loaded: report.skills.length }))
      return
    }
    yield* Console.log(
      [
        `${suggestions.length} suggested of ${report.skills.length} skills (suggestions arm nothing)`,
        ...(suggestions.length === 0
          ? []
          : [renderTable(["skill", "score", "matched"], suggestions.map(({ name, score, terms }) => [name, score.toFixed(2), terms.join(", ")]))]),
        ...problemSummary(report)
      ].join("\n")
    )
  })
).pipe(
  Command.withShortDescription("Rank the skills a prompt is most about (arms nothing)"),
  Command.withDescription(
    "Rank the loaded skills by the lexical relevance (BM25) of their name and description to the prompt,\n" +
      "with the prompt's words that matched. A suggestion arms nothing: `armory arm` decides arming.\n" +
      "Exit codes: 0 ranked (even when nothing matched), 2 invalid usage."
  )
)

export const skillsCommand = Command.make("skills").pipe(
  Command.withShortDescription("List, check, show and suggest SKILL.md documents, and print the catalog"),
  Command.withSubcommands([listCommand, checkCommand, catalogCommand, showCommand, suggestCommand])
)
