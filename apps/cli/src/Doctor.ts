import { createRequire } from "node:module"
import { probeBrowserDriver, type ProbeResult } from "@armory/capability-probe"
import { Console, Effect, Option, Stream } from "effect"
import { Command, Flag } from "effect/cli"
import { ChildProcess, ChildProcessSpawner } from "effect/process"
import { renderTable } from "./internal/Table.js"
import { CommandFailed } from "./internal/CommandFailed.js"

const MINIMUM_NODE = "22.19.0"
const DEFAULT_CHROMIUM = "/usr/bin/chromium"
const VERSION_TIMEOUT = "10 seconds"

export interface Component {
  readonly name: string
  readonly required: boolean
  readonly status: "present" | "missing" | "too-old" | "unverified"
  readonly version: string | null
  readonly location: string | null
  readonly detail: string
}

export interface DoctorReport {
  readonly ok: boolean
  readonly components: ReadonlyArray<Component>
  /** The browser driver probe exactly as `armory probe` prints it; null when not probed. */
  readonly probe: ProbeResult | null
}

const isAtLeast = (version: string, minimum: string): boolean => {
  const have = version.split(".").map(Number)
  const need = minimum.split(".").map(Number)
  for (let index = 0; index < need.length; index++) {
    const difference = (have[index] ?? 0) - (need[index] ?? 0)
    if (difference !== 0) return difference > 0
  }
  return true
}

/** `<command> --version`, trimmed; none when it cannot be run, exits non-zero or hangs. */
const versionOutput = Effect.fn("versionOutput")(function* (command: string) {
  const spawner = yield* ChildProcessSpawner.ChildProcessSpawner
  const run = Effect.gen(function* () {
    const handle = yield* spawner.spawn(ChildProcess.make(command, ["--version"], { stdin: "ignore" }))
    const [output, exitCode] = yield* Effect.all(
      [handle.stdout.pipe(Stream.decodeText(), Stream.mkString), handle.exitCode],
      { concurrency: "unbounded" }
    )
    return exitCode === 0 ? Option.some(output.trim()) : Option.none<string>()
  })
  return yield* run.pipe(
    Effect.scoped,
    Effect.timeout(VERSION_TIMEOUT),
    Effect.orElseSucceed(() => Option.none<string>())
  )
})

/** "Chromium 156.0.8078.73 built on Debian" → "156.0.8078.73"; the whole line when it has no number. */
const versionNumber = (output: string): string => /\d+(?:\.\d+)+/.exec(output)?.[0] ?? output

/** Whether the Node running the CLI is one Armory supports. */
export const assessNode = (version: string, location: string): Component => {
  const fits = isAtLeast(version, MINIMUM_NODE)
  return {
    name: "node",
    required: true,
    status: fits ? "present" : "too-old",
    version,
    location,
    detail: fits ? `>= ${MINIMUM_NODE}` : `Armory needs Node >= ${MINIMUM_NODE}`
  }
}

const pnpmComponent = Effect.gen(function* () {
  const version = yield* versionOutput("pnpm")
  return Option.match(version, {
    onNone: (): Component => ({
      name: "pnpm",
      required: false,
      status: "missing",
      version: null,
      location: null,
      detail: "not on PATH; needed only to develop Armory itself"
    }),
    onSome: (found): Component => ({
      name: "pnpm",
      required: false,
      status: "present",
      version: versionNumber(found),
      location: null,
      detail: "workspace package manager"
    })
  })
})

const chromiumComponent = Effect.gen(function* () {
  const configured = process.env["ARMORY_CHROMIUM"]
  const location = configured !== undefined && configured !== "" ? configured : DEFAULT_CHROMIUM
  const source = location === DEFAULT_CHROMIUM ? "default path" : "ARMORY_CHROMIUM"
  const output = yield* versionOutput(location)
  return Option.match(output, {
    onNone: (): Component => ({
      name: "chromium",
      required: false,
      status: "missing",
      version: null,
      location,
      detail: `nothing runnable at ${location} (${source}); browser features need it`
    }),
    onSome: (found): Component => ({
      name: "chromium",
      required: false,
      status: "present",
      version: versionNumber(found),
      location,
      detail: `from ${source}`
    })
  })
})

const playwrightComponent = (): Component => {
  const require = createRequire(import.meta.url)
  try {
    const manifestPath = require.resolve("playwright-core/package.json")
    const manifest: unknown = require(manifestPath)
    const version =
      typeof manifest === "object" && manifest !== null && "version" in manifest && typeof manifest.version === "string"
        ? manifest.version
        : null
    return { name: "playwright-core", required: false, status: "present", version, location: manifestPath, detail: "optional peer of the browser runtime" }
  } catch {
    return {
      name: "playwright-core",
      required: false,
      status: "missing",
      version: null,
      location: null,
      detail: "optional peer of the browser runtime; not installed"
    }
  }
}

/** The agent-browser row: the probe's verdict, with its blocker spelled out when there is one. */
export const browserDriverComponent = (probe: ProbeResult): Component => ({
  name: "agent-browser",
  required: false,
  status: probe.status === "available" ? "present" : probe.status === "unavailable" ? "missing" : "unverified",
  version: probe.version,
  location: probe.command,
  detail: probe.blocker === null ? `browser driver; ${probe.detail}` : `${probe.blocker}: ${probe.detail}`
})

/** Inspects the machine the CLI runs on: what Armory needs and which optional components exist. */
export const inspectEnvironment = Effect.gen(function* () {
  const [pnpm, chromium, probe] = yield* Effect.all(
    [pnpmComponent, chromiumComponent, Effect.promise(() => probeBrowserDriver())],
    { concurrency: "unbounded" }
  )
  const components = [
    assessNode(process.versions.node, process.execPath),
    pnpm,
    chromium,
    playwrightComponent(),
    browserDriverComponent(probe)
  ]
  return doctorReport(components, probe)
})

export const doctorReport = (components: ReadonlyArray<Component>, probe: ProbeResult | null = null): DoctorReport => ({
  ok: components.every((component) => !component.required || component.status === "present"),
  components,
  probe
})

const renderReport = (report: DoctorReport): string =>
  [
    renderTable(
      ["component", "status", "version", "location", "detail"],
      report.components.map((component) => [
        component.required ? `${component.name} (required)` : component.name,
        component.status,
        component.version ?? "-",
        component.location ?? "-",
        component.detail
      ])
    ),
    report.ok ? "armory doctor: ready" : "armory doctor: a required component is missing or too old"
  ].join("\n")

export const doctorCommand = Command.make(
  "doctor",
  {
    json: Flag.Boolean("json").pipe(
      Flag.withDefault(false),
      Flag.withDescription("print the report as one JSON object")
    )
  },
  Effect.fn("doctor")(function* ({ json }) {
    const report = yield* inspectEnvironment
    yield* Console.log(json ? JSON.stringify(report) : renderReport(report))
    if (!report.ok) return yield* new CommandFailed({ message: "a required component is missing or too old" })
  })
).pipe(
  Command.withShortDescription("Report the runtime and which optional components are present"),
  Command.withDescription(
    "Report the Node and pnpm versions and which optional components (Chromium, playwright-core, the\n" +
      "agent-browser driver, verified as `armory probe` does) are present.\n" +
      "Chromium is looked for at ARMORY_CHROMIUM, else /usr/bin/chromium.\n" +
      "Exit codes: 0 every required component is present, 1 one is missing or too old."
  )
)
