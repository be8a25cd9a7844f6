import { probeBrowserDriver, type ProbeResult } from "@armory/capability-probe"
import { Console, Effect } from "effect"
import { Command, Flag } from "effect/cli"
import { CommandFailed } from "./internal/CommandFailed.js"

/** The drivers `armory probe` knows, by the name `--driver` takes. */
const DRIVERS = {
  "agent-browser": probeBrowserDriver
} as const

/** The result as one JSON line, keys always in the documented order. */
export const probeJsonLine = (result: ProbeResult): string =>
  JSON.stringify({
    status: result.status,
    command: result.command,
    version: result.version,
    blocker: result.blocker,
    detail: result.detail
  })

export const probeCommand = Command.make(
  "probe",
  {
    driver: Flag.Literals("driver", ["agent-browser"]).pipe(
      Flag.withDefault("agent-browser"),
      Flag.withDescription("the driver to probe")
    ),
    json: Flag.Boolean("json").pipe(
      Flag.withDefault(false),
      Flag.withDescription("print only the JSON line (it is printed either way; without --json a summary goes to stderr)")
    )
  },
  Effect.fn("probe")(function* ({ driver, json }) {
    const result = yield* Effect.promise(() => DRIVERS[driver]())
    yield* Console.log(probeJsonLine(result))
    if (!json) {
      yield* Console.error(
        result.status === "available"
          ? `${result.version ?? driver} is available at ${result.command ?? ""}`
          : `${driver} is ${result.status} (${result.blocker ?? "no blocker"}): ${result.detail}`
      )
    }
    if (result.status !== "available") {
      return yield* new CommandFailed({ message: `${driver} is ${result.status}: ${result.blocker ?? ""}` })
    }
  })
).pipe(
  Command.withShortDescription("Check, as data, whether an external driver is present and really is that driver"),
  Command.withDescription(
    "Resolve the driver on PATH and verify its identity from its version banner; nothing is installed or launched.\n" +
      "Prints one JSON line on stdout: {status, command, version, blocker, detail}.\n" +
      "Exit codes: 0 the driver is available, 1 it is unavailable or its identity is unverified, 2 invalid usage."
  )
)
