import { load } from "@armory/skill-loader"
import { Console, Effect } from "effect"
import { Command, Flag } from "effect/cli"
import { CommandFailed } from "./internal/CommandFailed.js"
import { problemLines, renderSkillTable } from "./internal/LoadReportView.js"
import { skillSources } from "@armory/host"
import { checkSkillDirs, dirsFlag } from "./internal/SkillSources.js"

const jsonFlag = Flag.Boolean("json").pipe(Flag.withDefault(false), Flag.withDescription("print one JSON object"))

/** Loads the given skill roots, or the default ones; a named root that is not there is a usage error. */
export const loadRoots = (dirs: ReadonlyArray<string>) => checkSkillDirs(dirs).pipe(Effect.andThen(load(skillSources(dirs))))

const bodiesFlag = Flag.Boolean("bodies").pipe(
  Flag.withDefault(false),
  Flag.withDescription("with --json: include each skill's Markdown body (left out by default)")
)

const showReport = Effect.fn("showReport")(function* (dirs: ReadonlyArray<string>, json: boolean, bodies: boolean) {
  const report = yield* loadRoots(dirs)
  if (json) {
    const skills = bodies ? report.skills : report.skills.map(({ body: _body, ...skill }) => skill)
    yield* Console.log(JSON.stringify({ ...report, skills }))
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

export const skillsCommand = Command.make("skills").pipe(
  Command.withShortDescription("List and check SKILL.md documents"),
  Command.withSubcommands([listCommand, checkCommand])
)
