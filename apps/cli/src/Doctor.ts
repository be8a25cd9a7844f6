import { createRequire } from "node:module"
import { basename, dirname } from "node:path"
import { type DriverSpec, probeBrowserDriver, probeDriver, type ProbeResult } from "@armory/capability-probe"
import { Console, Effect } from "effect"
import { Command, Flag } from "effect/cli"
import { renderTable } from "./internal/Table.js"
import { CommandFailed } from "./internal/CommandFailed.js"

const MINIMUM_NODE = "22.19.0"
const DEFAULT_CHROMIUM = "/usr/bin/chromium"

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

/** A version-answering tool as the capability probe identifies one, with the blocker codes its rows name. */
const toolSpec = (command: string, name: string, identity: RegExp): DriverSpec => ({
  command,
  versionArgs: ["--version"],
  identity,
  blockers: {
    unavailable: `${name.toUpperCase()}_UNAVAILABLE`,
    identityUnverified: `${name.toUpperCase()}_IDENTITY_UNVERIFIED`,
    cleanupFailed: `${name.toUpperCase()}_CLEANUP_FAILED`
  }
})

/** "Chromium 156.0.8078.73 built on Debian …", or Google Chrome's own banner. */
const CHROMIUM_BANNER = /^(?:Chromium|Google Chrome) (?<version>\d+(?:\.\d+)+)(?: .*)?$/
const PNPM_BANNER = /^(?<version>\d+\.\d+\.\d+)$/

/**
 * A row from the probe's verdict: present with the version it proved, missing, or unverified when
 * something answered but not as the tool does (its blocker and reason in the detail).
 */
const probedComponent = (
  name: string,
  probe: ProbeResult,
  rows: { readonly present: string; readonly missing: string; readonly location?: string | null }
): Component => ({
  name,
  required: false,
  status: probe.status === "available" ? "present" : probe.status === "unavailable" ? "missing" : "unverified",
  version: probe.version,
  location: probe.command ?? rows.location ?? null,
  detail: probe.status === "available" ? rows.present : probe.status === "unavailable" ? rows.missing : `${probe.blocker}: ${probe.detail}`
})

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

const pnpmComponent = Effect.promise(() => probeDriver(toolSpec("pnpm", "pnpm", PNPM_BANNER))).pipe(
  Effect.map((probe) =>
    probedComponent("pnpm", probe, { present: "workspace package manager", missing: "not on PATH; needed only to develop Armory itself" })
  )
)

const chromiumComponent = Effect.suspend(() => {
  const configured = process.env["ARMORY_CHROMIUM"]
  const location = configured !== undefined && configured !== "" ? configured : DEFAULT_CHROMIUM
  const source = location === DEFAULT_CHROMIUM ? "default path" : "ARMORY_CHROMIUM"
  // The probe looks a bare name up on a PATH: the configured file's name, on its own directory.
  return Effect.promise(() => probeDriver(toolSpec(basename(location), "chromium", CHROMIUM_BANNER), { path: dirname(location) })).pipe(
    Effect.map((probe) =>
      probedComponent("chromium", probe, {
        present: `from ${source}`,
        missing: `nothing runnable at ${location} (${source}); browser features need it`,
        location
      })
    )
  )
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
export const browserDriverComponent = (probe: ProbeResult): Component =>
  probedComponent("agent-browser", probe, { present: `browser driver; ${probe.detail}`, missing: `${probe.blocker}: ${probe.detail}` })

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
    "Report the Node version and which optional components (pnpm, Chromium, playwright-core, the\n" +
      "agent-browser driver) are present. pnpm, Chromium and agent-browser are identified as `armory probe`\n" +
      "identifies a driver: run with a PATH-only environment in a private directory, by a banner that must match.\n" +
      "Chromium is looked for at ARMORY_CHROMIUM, else /usr/bin/chromium.\n" +
      "Exit codes: 0 every required component is present, 1 one is missing or too old."
  )
)
