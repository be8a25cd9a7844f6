import { mkdir, readFile, rename, writeFile } from "node:fs/promises"
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path"
import { DEFAULT_ARMORY_COMMAND, defaultSkillSources, hostSetup, SETUP_HOSTS, SETUP_NEXT_STEPS } from "@armory/host"
import { loadSkills } from "@armory/skill-loader"
import { createTwoFilesPatch } from "diff"
import { Console, Effect } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { CommandFailed, invalidUsage } from "./internal/CommandFailed.js"
import { checkSkillDirs, dirsFlag } from "./internal/SkillSources.js"

/** What happened to a file: changed (written, unless it is a dry run), already set up, or left alone because it cannot be merged into. */
type Outcome = { readonly path: string; readonly status: "changed" | "unchanged" | "refused"; readonly detail?: string }

const readIfThere = (file: string): Promise<string | undefined> =>
  readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined
    throw error
  })

/** Replaces a file whole: written beside it, then renamed over it, so a reader never sees half of it. */
const writeWhole = async (file: string, text: string): Promise<void> => {
  await mkdir(dirname(file), { recursive: true })
  const temporary = `${file}.armory-${process.pid}.tmp`
  await writeFile(temporary, text)
  await rename(temporary, file)
}

export const initCommand = Command.make(
  "init",
  {
    host: Argument.Literals("host", SETUP_HOSTS).pipe(Argument.withDescription("the agent host to set Armory up in")),
    project: Flag.String("project").pipe(Flag.withDefault("."), Flag.withDescription("the project directory whose configuration is written (default: the working directory)")),
    command: Flag.String("command").pipe(
      Flag.withDefault(DEFAULT_ARMORY_COMMAND.join(" ")),
      Flag.withDescription("how the host starts armory, as words (default: npx -y @armory/cli; `armory` once it is installed, which starts faster)")
    ),
    dirs: dirsFlag,
    dryRun: Flag.Boolean("dry-run").pipe(Flag.withDefault(false), Flag.withDescription("print the changes as a diff and write nothing")),
    json: Flag.Boolean("json").pipe(Flag.withDefault(false), Flag.withDescription("print one JSON line: each file and what happened to it"))
  },
  Effect.fn("init")(function* ({ host, project, command, dirs, dryRun, json }) {
    const words = command.trim().split(/\s+/).filter((word) => word !== "")
    if (words.length === 0) return yield* invalidUsage("--command needs at least one word")
    yield* checkSkillDirs(dirs)
    const root = resolve(project)
    // Only the AGENTS.md section lists the skills; the other hosts read them through the hooks and the server.
    const report =
      host === "codex"
        ? yield* Effect.promise(() => loadSkills(dirs.length > 0 ? dirs.map((dir) => resolve(dir)) : defaultSkillSources({ cwd: root })))
        : undefined
    const relativeTo = (location: string) => {
      const inside = relative(root, location)
      return inside === "" || inside === ".." || inside.startsWith(`..${sep}`) || isAbsolute(inside) ? undefined : inside.split(sep).join("/")
    }
    const outcomes: Array<Outcome> = []
    const patches: Array<string> = []
    for (const file of hostSetup(host, words, { skills: report?.skills, relativeTo })) {
      const absolute = join(root, file.path)
      const current = yield* Effect.tryPromise({
        try: () => readIfThere(absolute),
        catch: (error) => new CommandFailed({ message: `cannot read ${file.path}: ${String(error)}` })
      })
      const merged = file.merge(current)
      if ("error" in merged) {
        outcomes.push({ path: file.path, status: "refused", detail: merged.error })
        continue
      }
      if (merged.text === current) {
        outcomes.push({ path: file.path, status: "unchanged" })
        continue
      }
      patches.push(createTwoFilesPatch(`a/${file.path}`, `b/${file.path}`, current ?? "", merged.text, undefined, undefined, { context: 3 }))
      if (!dryRun) {
        yield* Effect.tryPromise({
          try: () => writeWhole(absolute, merged.text),
          catch: (error) => new CommandFailed({ message: `cannot write ${file.path}: ${String(error)}` })
        })
      }
      outcomes.push({ path: file.path, status: "changed" })
    }
    const nextStep = SETUP_NEXT_STEPS[host]
    if (json) yield* Console.log(JSON.stringify({ host, dryRun, files: outcomes, ...(nextStep === undefined ? {} : { nextStep }) }))
    else {
      if (dryRun && patches.length > 0) yield* Console.log(patches.join(""))
      for (const outcome of outcomes) {
        const status = outcome.status !== "changed" ? outcome.status : dryRun ? "would write" : "written"
        yield* Console.log(`${status.padEnd(11)} ${outcome.path}${outcome.detail === undefined ? "" : `: ${outcome.detail}`}`)
      }
      if (nextStep !== undefined) yield* Console.log(`next step: ${nextStep}`)
    }
    const refused = outcomes.filter((outcome) => outcome.status === "refused")
    if (refused.length > 0) return yield* new CommandFailed({ message: `${refused.length} file(s) left as they were: ${refused.map((outcome) => outcome.path).join(", ")}` })
  })
).pipe(
  Command.withShortDescription("Write or merge an agent host's project configuration for Armory"),
  Command.withDescription(
    "claude-code: .claude/settings.json gets the SessionStart, UserPromptSubmit and PostToolUse (Edit|Write|MultiEdit|NotebookEdit)\n" +
      "hooks that run `armory hook claude-code`, and .mcp.json gets the `armory` MCP server (`armory mcp`).\n" +
      "opencode: opencode.json gets the `armory` MCP server, .opencode/plugins/armory.js the plugin (chat.message and\n" +
      "tool.execute.after, running `armory hook opencode`; it imports nothing, so OpenCode installs nothing for it).\n" +
      "codex: .codex/config.toml gets [mcp_servers.armory] (required, its tools approved), .codex/hooks.json the SessionStart,\n" +
      "UserPromptSubmit and PostToolUse (apply_patch) hooks that run `armory hook codex` (Codex runs them once you trust them\n" +
      "under /hooks), and AGENTS.md a section listing the\n" +
      "project's skills Codex does not list itself (name, description, what arms it, SKILL.md) between\n" +
      "<!-- armory:skills:begin --> and <!-- armory:skills:end -->; run it again when the skills change.\n" +
      "What is there is kept; what is already set up is not added again, so a second run changes nothing.\n" +
      "A file that is not valid JSON, or whose hooks or servers are not what Claude Code reads, is reported and left as it is.\n" +
      "Exit codes: 0 written or already set up, 1 a file was left as it was, 2 invalid usage."
  )
)
