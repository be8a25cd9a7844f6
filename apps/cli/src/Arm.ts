import { arm, compileSuggestions, suggest } from "@armory/skill-arming"
import { Console, Effect, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { problemSummary } from "./internal/LoadReportView.js"
import { renderTable } from "./internal/Table.js"
import { dirsFlag } from "./internal/SkillSources.js"
import { loadRoots } from "./Skills.js"

const patterns = (label: string, values: ReadonlyArray<string>) => (values.length === 0 ? [] : [`${label}: ${values.join(", ")}`])

/** When nothing armed, the skills the prompt is most about: most real skills declare no autoInject. */
const suggestionHint = (suggestions: ReadonlyArray<{ readonly name: string }>) =>
  suggestions.length === 0 ? [] : [`not armed, but the prompt is about: ${suggestions.map(({ name }) => name).join(", ")} (\`armory skills suggest\` ranks them)`]

export const armCommand = Command.make(
  "arm",
  {
    prompt: Argument.String("prompt").pipe(Argument.withDescription("the user's prompt")),
    url: Flag.String("url").pipe(Flag.optional, Flag.withDescription("the page the agent is on")),
    paths: Flag.String("path").pipe(
      Flag.atLeast(0),
      Flag.withDescription("a repo-relative file in play, e.g. the file a post-edit hook reports (repeatable)")
    ),
    dirs: dirsFlag,
    json: Flag.Boolean("json").pipe(Flag.withDefault(false), Flag.withDescription("print one JSON object"))
  },
  Effect.fn("arm")(function* ({ prompt, url, paths, dirs, json }) {
    const report = yield* loadRoots(dirs)
    const armed = arm({ skills: report.skills, prompt, url: Option.getOrUndefined(url), paths })
    if (json) {
      const { dropped, ignoredAutoInject, shadowed, warnings } = report
      yield* Console.log(
        JSON.stringify({ armed, loaded: report.skills.length, dropped, ignoredAutoInject, shadowed, warnings })
      )
      return
    }
    yield* Console.log(
      [
        `armed ${armed.length} of ${report.skills.length} skills`,
        ...(armed.length === 0
          ? []
          : [
              renderTable(
                ["skill", "armed by"],
                armed.map((entry) => [
                  entry.name,
                  [...patterns("keywords", entry.keywords), ...patterns("url", entry.urls), ...patterns("paths", entry.paths)].join(
                    "; "
                  )
                ])
              )
            ]),
        ...suggestionHint(armed.length === 0 ? suggest({ skills: compileSuggestions(report.skills), prompt }) : []),
        ...problemSummary(report)
      ].join("\n")
    )
  })
).pipe(
  Command.withShortDescription("Show which skills arm for a prompt, URL and files, and why"),
  Command.withDescription(
    "Load the skill roots and decide which skills arm for the prompt (and --url, --path), listing\n" +
      "the keywords, URL globs and path globs that armed each one.\n" +
      "Exit codes: 0 the decision was made (even when nothing armed), 2 invalid usage."
  )
)
