import { Console, Effect, Stdio } from "effect"
import { CliOutput, Command, TerminalCapabilities } from "effect/cli"
import { armCommand } from "./Arm.js"
import { browserCommand } from "./Browser.js"
import { doctorCommand } from "./Doctor.js"
import { execCommand } from "./Exec.js"
import { goalCommand } from "./Goal.js"
import { hookCommand } from "./Hook.js"
import { initCommand } from "./Init.js"
import { instructionsCommand } from "./Instructions.js"
import { mcpCommand } from "./Mcp.js"
import { UsageError } from "./internal/CommandFailed.js"
import { ARMORY_VERSION } from "./internal/Version.js"
import { probeCommand } from "./Probe.js"
import { serveCommand } from "./Serve.js"
import { skillsCommand } from "./Skills.js"

/** The `armory` command tree; each subcommand lives in the module named after it. */
export const armoryCommand = Command.make("armory").pipe(
  Command.withDescription(
    "Armory: skills, code mode, durable goals and an honest browser for AI agent hosts.\n" +
      "Exit codes: 0 success, 1 the command ran and reported a failure, 2 invalid usage."
  ),
  Command.withSubcommands([skillsCommand, armCommand, goalCommand, execCommand, instructionsCommand, browserCommand, probeCommand, serveCommand, mcpCommand, hookCommand, initCommand, doctorCommand])
)

/**
 * The subcommand path the arguments name, e.g. `armory goal set` for `goal --root g set …`: flags
 * and their values are passed over until a command without subcommands is reached.
 */
const commandPath = (args: ReadonlyArray<string>): ReadonlyArray<string> => {
  const path: Array<string> = [armoryCommand.name]
  let current: Command.Command.Any = armoryCommand
  for (const arg of args) {
    const subcommands = current.subcommands.flatMap((group) => group.commands)
    if (subcommands.length === 0) break
    const next = subcommands.find((command) => command.name === arg)
    if (next === undefined) continue
    path.push(next.name)
    current = next
  }
  return path
}

/**
 * The word in a subcommand's place that names no subcommand, with the command it was given to:
 * effect/cli refuses it, except with `--help`, where it shows the nearest command's help and exits
 * 0 as if the word had been right. A word after an option is passed over: it may be the option's value.
 */
const unknownSubcommand = (args: ReadonlyArray<string>): { readonly word: string; readonly command: string } | undefined => {
  const path: Array<string> = [armoryCommand.name]
  let current: Command.Command.Any = armoryCommand
  let afterOption = false
  for (const arg of args) {
    const subcommands = current.subcommands.flatMap((group) => group.commands)
    if (subcommands.length === 0) return undefined
    if (arg.startsWith("-")) {
      afterOption = !arg.includes("=")
      continue
    }
    const next = subcommands.find((command) => command.name === arg)
    if (next !== undefined) {
      path.push(next.name)
      current = next
    } else if (!afterOption) return { word: arg, command: path.join(" ") }
    afterOption = false
  }
  return undefined
}

const asksForHelp = (args: ReadonlyArray<string>): boolean => args.some((arg) => arg === "--help" || arg === "-h")

/** Usage errors go to stderr as one short reason each and the `--help` hint, never the help page on stdout. */
const quietInvalidInvocation = CliOutput.layerPresenter({
  present: (event) => (event._tag === "InvalidInvocation" ? Effect.void : CliOutput.defaultPresenter.present(event))
})

const reportUsage = (args: ReadonlyArray<string>) => (error: UsageError) => {
  const path = commandPath(args).join(" ")
  return Console.error([...error.reasons.map((reason) => `${path}: ${reason}`), `Run \`${path} --help\` for usage.`].join("\n"))
}

export const runCli = Effect.gen(function* () {
  const args = yield* (yield* Stdio.Stdio).args
  const { canPrompt } = yield* TerminalCapabilities.TerminalCapabilities
  const wizard = args.some((arg) => arg === "--wizard" || arg.startsWith("--wizard="))
  const unknown = asksForHelp(args) ? unknownSubcommand(args) : undefined
  const run =
    unknown !== undefined
      ? Effect.fail(new UsageError({ reasons: [`Unknown subcommand ${JSON.stringify(unknown.word)} for ${JSON.stringify(unknown.command)}`] }))
      : wizard && !canPrompt
      ? Effect.fail(new UsageError({ reasons: ["--wizard asks its questions on a terminal: stdin and stdout must both be one"] }))
      : Command.run(armoryCommand, { version: ARMORY_VERSION }).pipe(
          Effect.catchTag("ShowHelp", (help) =>
            help.errors.length === 0 ? Effect.void : Effect.fail(new UsageError({ reasons: help.errors.map((error) => error.message) }))
          ),
          Effect.provide(quietInvalidInvocation)
        )
  return yield* run.pipe(Effect.tapErrorTag("UsageError", reportUsage(args)))
})
