import { readFile } from "node:fs/promises"
import { readSetting } from "@armory/browser-runtime"
import { renderReceipt } from "./internal/CleanupText.js"
import type { ExecuteResult } from "@armory/codemode"
import { sessionPaths } from "@armory/goal-store"
import { type Channel, HOST_GLOBALS, makeHost, skillSources } from "@armory/host"
import { Console, Effect, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { providerFlag } from "./Browser.js"
import { CommandFailed, invalidUsage } from "./internal/CommandFailed.js"
import { selectedGlobals } from "./internal/Globals.js"
import { pageGlobal } from "./internal/PageGlobal.js"
import { mcpConfigFlag, mcpServersOf } from "./internal/McpServers.js"
import { checkSkillDirs, dirsFlag } from "./internal/SkillSources.js"
import { readStdin } from "./internal/Stdin.js"

const readCode = (file: string) =>
  Effect.tryPromise({
    try: () => (file === "-" ? readStdin() : readFile(file, "utf8")),
    catch: (error) => new CommandFailed({ message: `cannot read ${file === "-" ? "stdin" : file}: ${String(error)}` })
  })

const renderText = (result: ExecuteResult): string =>
  [
    `status: ${result.status}`,
    ...(result.result === undefined ? [] : [`result: ${JSON.stringify(result.result, null, 2)}`]),
    ...(result.error === undefined ? [] : [`error: ${result.error._tag}: ${result.error.message}`]),
    ...(result.logs.length === 0 ? [] : ["logs:", ...result.logs.map((line) => `  ${line}`)]),
    ...(result.calls.length === 0 ? [] : ["calls:", ...result.calls.map((call) => `  ${call.path} ${call.status}`)]),
    ...(result.truncated === true ? ["(truncated)"] : [])
  ].join("\n")

export const execCommand = Command.make(
  "exec",
  {
    file: Argument.String("file").pipe(Argument.withDescription("a JavaScript file to run, or - to read it from stdin")),
    globals: Flag.String("globals").pipe(
      Flag.atLeast(0),
      Flag.withDescription(`globals to bind, comma-separated or repeated (default: ${HOST_GLOBALS.join(",")})`)
    ),
    timeout: Flag.Int("timeout").pipe(Flag.optional, Flag.withDescription("time limit in milliseconds (default 30000)")),
    dirs: dirsFlag,
    provider: providerFlag,
    goalsRoot: Flag.String("goals-root").pipe(
      Flag.optional,
      Flag.withDescription("the goals directory `goals` works on (default: .armory/goals)")
    ),
    sessionId: Flag.String("session-id").pipe(
      Flag.optional,
      Flag.withDescription("the goal session `goals` works on, under sessions/<id>/ (default: the root aggregate)")
    ),
    mcp: mcpConfigFlag,
    json: Flag.Boolean("json").pipe(Flag.withDefault(false), Flag.withDescription("print the result as one JSON object"))
  },
  ({ file, globals, timeout, dirs, provider, goalsRoot, sessionId, mcp, json }) =>
    Effect.scoped(
      Effect.gen(function* () {
        const timeoutMs = Option.getOrUndefined(timeout)
        if (timeoutMs !== undefined && timeoutMs <= 0) {
          return yield* invalidUsage(`--timeout must be a positive number of milliseconds, got ${timeoutMs}`)
        }
        yield* checkSkillDirs(dirs)
        const root = Option.getOrUndefined(goalsRoot)
        const session = Option.getOrUndefined(sessionId)
        // An unsafe session id is refused before any code runs; the session itself opens on its first call.
        yield* Effect.fromResult(sessionPaths({ root, sessionId: session })).pipe(
          Effect.mapError((error) => new CommandFailed({ message: error.message }))
        )
        const mcpServers = yield* mcpServersOf(mcp)
        const host = yield* makeHost({ skillSources: skillSources(dirs), catalog: { watch: false }, goals: { store: "file", root }, mcpServers }).pipe(
          Effect.mapError((error) => new CommandFailed({ message: error.message }))
        )
        const code = yield* readCode(file)
        const { page, cleanup } = yield* pageGlobal(Option.getOrUndefined(provider) ?? readSetting(process.env, "provider"))
        const messages: Array<string> = []
        const channel: Channel = {
          id: "armory-exec",
          send: async ({ text }) => {
            messages.push(text)
            if (!json) process.stdout.write(`[channel] ${text}\n`)
          }
        }
        const run = { channel, page, sessionId: session }
        const selected = yield* selectedGlobals(host.tools(run), globals)
        const result = yield* host.execute(code, { ...run, globals: selected, ...(timeoutMs === undefined ? {} : { timeoutMs }) }).pipe(Effect.mapError((error) => invalidUsage(`${error._tag === "InvalidLimitError" ? "--timeout" : "--globals"}: ${error.message}`)))
        const receipt = cleanup === undefined ? undefined : yield* Effect.promise(cleanup)
        yield* Console.log(
          json
            ? JSON.stringify({ ...result, channel: { id: channel.id, messages }, ...(receipt === undefined ? {} : { cleanup: receipt }) })
            : [renderText(result), ...(receipt === undefined ? [] : [renderReceipt(receipt)])].join("\n")
        )
        if (result.status !== "completed") {
          return yield* new CommandFailed({ message: `the execution ended with status ${result.status}` })
        }
        if (receipt !== undefined && !receipt.verified) {
          return yield* new CommandFailed({ message: `cleanup-blocked: ${receipt.blocker ?? "the cleanup could not be verified"}` })
        }
      })
    )
).pipe(
  Command.withShortDescription("Run JavaScript in the code-mode sandbox with channel, page, skills and goals as globals"),
  Command.withDescription(
    "Run a file (or stdin) as the body of an async function in the QuickJS sandbox. Globals:\n" +
      "  channel  id(), send({ text }): messages are printed and collected in the result\n" +
      "  page     snapshot(), click/type/select/press/hover/value({ ref } | { selector }), waitFor(), url(), title(),\n" +
      "           text(), query(), screenshot() (into .armory/artifacts), navigate(), dialogs() on a page of its own in\n" +
      "           the browser that --provider (or ARMORY_BROWSER_PROVIDER) connects to; without one, or when it is\n" +
      "           unavailable, every call fails with DomainUnavailableError naming what is missing. With a browser the\n" +
      "           result carries a cleanup receipt proving every page and context it opened is gone\n" +
      "  skills   list(), arm({ prompt, url? }) over the skill roots (--dir)\n" +
      "  goals    set(), addCriterion(), addEvidence(), setCriterionStatus(), steer(), checkpoint(), addBlocker(),\n" +
      "           resolveBlocker(), setGoalStatus(), status(), complete(), sessions(), snapshot() on the goal store\n" +
      "           (--goals-root, default .armory/goals; --session-id); refusals throw the store's typed errors\n" +
      "           (GateRefused with its unmet list, SteeringRejected, ...)\n" +
      "  tools.<server>.<tool>(input)  the tools of each MCP server --mcp names, validated against their JSON Schemas\n" +
      "`armory instructions` prints the declarations and rules a model gets.\n" +
      "Exit codes: 0 the code completed, 1 it failed or timed out (the result is still printed), its cleanup\n" +
      "could not be verified (cleanup-blocked)\n" +
      "or the file could not be read, 2 invalid usage (a global code mode refuses, a --timeout that is not positive)."
  )
)
