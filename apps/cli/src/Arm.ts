import { arm, compileSuggestions, type FileEdit, suggest } from "@armory/skill-arming"
import { Console, Effect, FileSystem, Option, Path } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { invalidUsage } from "./internal/CommandFailed.js"
import { problemSummary } from "./internal/LoadReportView.js"
import { renderTable } from "./internal/Table.js"
import { dirsFlag } from "./internal/SkillSources.js"
import { loadRoots } from "./Skills.js"

const patterns = (label: string, values: ReadonlyArray<string>) => (values.length === 0 ? [] : [`${label}: ${values.join(", ")}`])

const editLines = (edits: ReadonlyArray<{ readonly path: string; readonly lines: ReadonlyArray<string> }>) =>
  edits.map(({ path, lines }) => `edit of ${path}: ${lines.length} added ${lines.length === 1 ? "line" : "lines"} met its condition`)

/** The most of an `--edited` file read: a post-edit hook reads no more of one event's edits. */
const MAX_EDITED_BYTES = 1_048_576

/**
 * A file given with `--edited`, as an edit that wrote its current text (what it replaced is not
 * known), under its path relative to the working directory, as globs are written.
 */
const editedFile = Effect.fn("editedFile")(function* (file: string) {
  const fs = yield* FileSystem.FileSystem
  const path = yield* Path.Path
  const bytes = yield* fs.readFile(file).pipe(Effect.mapError((error) => invalidUsage(`--edited ${file}: ${error.message}`)))
  const after = new TextDecoder().decode(bytes.subarray(0, MAX_EDITED_BYTES))
  return { path: path.relative(path.resolve("."), path.resolve(file)).split(path.sep).join("/"), after } satisfies FileEdit
})

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
    edited: Flag.String("edited").pipe(
      Flag.atLeast(0),
      Flag.withDescription("a repo-relative file as an edit just wrote it: its text counts as added, for skills with an edit condition (repeatable)")
    ),
    dirs: dirsFlag,
    json: Flag.Boolean("json").pipe(Flag.withDefault(false), Flag.withDescription("print one JSON object"))
  },
  Effect.fn("arm")(function* ({ prompt, url, paths, edited, dirs, json }) {
    const report = yield* loadRoots(dirs)
    const edits = yield* Effect.forEach(edited, editedFile)
    const armed = arm({ skills: report.skills, prompt, url: Option.getOrUndefined(url), paths, edits })
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
                  [...patterns("keywords", entry.keywords), ...patterns("url", entry.urls), ...patterns("paths", entry.paths), ...editLines(entry.edits)].join("; ")
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
    "Load the skill roots and decide which skills arm for the prompt (and --url, --path, --edited),\n" +
      "listing the keywords, URL globs and path globs that armed each one, and the added lines that met\n" +
      "an edit condition.\n" +
      "Exit codes: 0 the decision was made (even when nothing armed), 2 invalid usage."
  )
)
