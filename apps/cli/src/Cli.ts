import { Effect } from "effect"
import { Command } from "effect/cli"
import packageJson from "../package.json" with { type: "json" }
import { armCommand } from "./Arm.js"
import { browserCommand } from "./Browser.js"
import { doctorCommand } from "./Doctor.js"
import { execCommand } from "./Exec.js"
import { goalCommand } from "./Goal.js"
import { instructionsCommand } from "./Instructions.js"
import { UsageError } from "./internal/CommandFailed.js"
import { probeCommand } from "./Probe.js"
import { serveCommand } from "./Serve.js"
import { skillsCommand } from "./Skills.js"

/** The `armory` command tree; each subcommand lives in the module named after it. */
export const armoryCommand = Command.make("armory").pipe(
  Command.withDescription(
    "Armory: skills, code mode, durable goals and an honest browser for AI agent hosts.\n" +
      "Exit codes: 0 success, 1 the command ran and reported a failure, 2 invalid usage."
  ),
  Command.withSubcommands([skillsCommand, armCommand, goalCommand, execCommand, instructionsCommand, browserCommand, probeCommand, serveCommand, doctorCommand])
)

export const runCli = Command.run(armoryCommand, { version: packageJson.version }).pipe(
  Effect.catchTag("ShowHelp", (help) =>
    help.errors.length === 0
      ? Effect.void
      : Effect.fail(new UsageError({ reasons: help.errors.map((error) => error.message) }))
  )
)
