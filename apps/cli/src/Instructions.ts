import { unavailablePage } from "@armory/browser-runtime"
import { instructions } from "@armory/codemode"
import { Console, Effect } from "effect"
import { Command, Flag } from "effect/cli"
import { NO_BROWSER } from "./Exec.js"
import { EXEC_GLOBALS, execTools, lazyGoalStore, selectedGlobals, unavailableChannel } from "./internal/ExecTools.js"
import { checkSkillDirs, dirsFlag } from "./internal/SkillSources.js"

export const instructionsCommand = Command.make(
  "instructions",
  {
    globals: Flag.String("globals").pipe(
      Flag.atLeast(0),
      Flag.withDescription(`globals to describe, comma-separated or repeated (default: ${EXEC_GLOBALS.join(",")})`)
    ),
    dirs: dirsFlag,
    json: Flag.Boolean("json").pipe(Flag.withDefault(false), Flag.withDescription('print { "instructions": text } as JSON'))
  },
  Effect.fn("instructions")(function* ({ globals, dirs, json }) {
    yield* checkSkillDirs(dirs)
    // The preview only describes `goals`; the store is opened on a call, and no call is made here.
    const goals = yield* Effect.fromResult(lazyGoalStore({}))
    const tools = yield* execTools({ channel: unavailableChannel, page: unavailablePage(NO_BROWSER), goals, dirs })
    const text = instructions(tools, { globals: yield* selectedGlobals(tools, globals) })
    yield* Console.log(json ? JSON.stringify({ instructions: text }) : text)
  })
).pipe(
  Command.withShortDescription("Print the code-mode catalog preview: declarations, globals and rules"),
  Command.withDescription(
    "Print what a model reads before writing code for `armory exec`: TypeScript declarations of\n" +
      "the channel, page, skills and goals tools, the list of globals and the sandbox rules.\n" +
      "Exit codes: 0 printed, 2 invalid usage."
  )
)
