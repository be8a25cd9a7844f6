import { unavailablePage } from "@armory/browser-runtime"
import { HOST_GLOBALS, makeHost, skillSources, unavailableChannel } from "@armory/host"
import { Console, Effect } from "effect"
import { Command, Flag } from "effect/cli"
import { NO_BROWSER } from "./internal/PageGlobal.js"
import { CommandFailed } from "./internal/CommandFailed.js"
import { selectedGlobals } from "./internal/Globals.js"
import { mcpConfigFlag, mcpServersOf } from "./internal/McpServers.js"
import { checkSkillDirs, dirsFlag } from "./internal/SkillSources.js"

export const instructionsCommand = Command.make(
  "instructions",
  {
    globals: Flag.String("globals").pipe(
      Flag.atLeast(0),
      Flag.withDescription(`globals to describe, comma-separated or repeated (default: ${HOST_GLOBALS.join(",")})`)
    ),
    dirs: dirsFlag,
    mcp: mcpConfigFlag,
    json: Flag.Boolean("json").pipe(Flag.withDefault(false), Flag.withDescription('print { "instructions": text } as JSON'))
  },
  Effect.fn("instructions")(function* ({ globals, dirs, mcp, json }) {
    yield* checkSkillDirs(dirs)
    const mcpServers = yield* mcpServersOf(mcp)
    // The preview only describes `goals`; a session opens on a call, and no call is made here.
    const host = yield* makeHost({ skillSources: skillSources(dirs), catalog: { watch: false }, mcpServers }).pipe(
      Effect.mapError((error) => new CommandFailed({ message: error.message }))
    )
    const tools = host.tools({ channel: unavailableChannel, page: unavailablePage(NO_BROWSER) })
    const text = host.instructions(yield* selectedGlobals(tools, globals))
    yield* Console.log(json ? JSON.stringify({ instructions: text }) : text)
  }, Effect.scoped)
).pipe(
  Command.withShortDescription("Print the code-mode catalog preview: declarations, globals and rules"),
  Command.withDescription(
    "Print what a model reads before writing code for `armory exec`: TypeScript declarations of\n" +
      "the channel, page, skills and goals tools (and of the MCP servers --mcp names), the list of globals and the sandbox rules.\n" +
      "Exit codes: 0 printed, 2 invalid usage."
  )
)
