import { isAbsolute, resolve } from "node:path"
import { pathToFileURL } from "node:url"
import { type CdpPage, type JobOutcome, type JobResult, normalizeProvider, runJob, type Step, type StopOn } from "@armory/browser-runtime"
import { acquireBrowserPage, probeProviders } from "@armory/host"
import { Console, Effect, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { renderReceipt } from "./internal/CleanupText.js"
import { CommandFailed } from "./internal/CommandFailed.js"

const jsonFlag = Flag.Boolean("json").pipe(Flag.withDefault(false), Flag.withDescription("print one JSON object"))

export const providerFlag = Flag.String("provider").pipe(
  Flag.optional,
  Flag.withDescription("auto, browseros, aside or chrome-cdp (default: ARMORY_BROWSER_PROVIDER, else auto)")
)

/** The message of a typed runtime error, or of anything else thrown. */
const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error))

const providersCommand = Command.make("providers", { json: jsonFlag }, ({ json }) =>
  Effect.gen(function* () {
    const selected = yield* Effect.try({
      try: () => normalizeProvider(undefined, process.env),
      catch: (error) => new CommandFailed({ message: describe(error) })
    })
    const probed = yield* Effect.promise(() => probeProviders())
    const report = {
      ...probed,
      providers: probed.providers.map(({ provider, endpoint, status, error }) => ({
        provider,
        endpoint,
        status,
        detail: error === null ? "answers as a browser" : error.message
      }))
    }
    if (json) yield* Console.log(JSON.stringify({ selected, ...report }))
    else {
      yield* Console.log(`platform ${report.platform}, selected ${selected}, auto order ${report.order.join(" → ")}`)
      for (const entry of report.providers) {
        yield* Console.log(`  ${entry.provider.padEnd(10)} ${entry.status.padEnd(11)} ${entry.endpoint}  ${entry.detail}`)
      }
    }
    if (!report.providers.some((entry) => entry.status === "available")) {
      return yield* new CommandFailed({ message: "no browser provider is available" })
    }
  })
).pipe(
  Command.withShortDescription("Show the auto order for this platform and probe each provider"),
  Command.withDescription(
    "Probes every provider in this platform's auto order (nothing is launched) and prints each result.\n" +
      "Environment: ARMORY_BROWSER_PROVIDER, ARMORY_BROWSEROS_CDP_URL, ARMORY_CHROME_CDP_URL, ARMORY_ASIDE_COMMAND\n" +
      "(KSKILL_* names accepted as aliases).\n" +
      "Exit codes: 0 at least one provider is available, 1 none is (or the selected provider is unknown), 2 invalid usage."
  )
)

interface JobModule {
  readonly steps: ReadonlyArray<Step<CdpPage>>
  readonly stopOn?: StopOn<CdpPage>
}

const loadJob = (file: string) =>
  Effect.tryPromise({
    try: async (): Promise<JobModule> => {
      const loaded: Record<string, unknown> = await import(pathToFileURL(isAbsolute(file) ? file : resolve(file)).href)
      const { steps, stopOn } = loaded
      if (!Array.isArray(steps)) throw new TypeError("the job module must export `steps`, an array of functions")
      if (stopOn !== undefined && typeof stopOn !== "function") throw new TypeError("`stopOn`, when exported, must be a function")
      return { steps, ...(typeof stopOn === "function" ? { stopOn: stopOn as StopOn<CdpPage> } : {}) }
    },
    catch: (error) => new CommandFailed({ message: `cannot load ${file}: ${describe(error)}` })
  })

const encodeOutcome = (result: JobOutcome) =>
  result.status === "stopped"
    ? { status: result.status, stopReason: { code: result.stopReason.code, message: result.stopReason.message }, results: result.results }
    : { status: result.status, results: result.results }

const encodeResult = (result: JobResult) =>
  result.status === "cleanup-blocked"
    ? { status: result.status, blocker: result.blocker, outcome: encodeOutcome(result.outcome), results: result.results, cleanup: result.cleanup }
    : { ...encodeOutcome(result), ...(result.cleanup === undefined ? {} : { cleanup: result.cleanup }) }

const runCommand = Command.make(
  "run",
  {
    job: Argument.String("job").pipe(Argument.withDescription("an ES module exporting `steps` (and optionally `stopOn`)")),
    provider: providerFlag,
    url: Flag.String("url").pipe(Flag.optional, Flag.withDescription("the page to load before the first step (http, https, about:blank)")),
    json: jsonFlag
  },
  ({ job, provider, url, json }) =>
    Effect.scoped(
      Effect.gen(function* () {
        const { steps, stopOn } = yield* loadJob(job)
        const { session } = yield* acquireBrowserPage(Option.getOrUndefined(provider)).pipe(
          Effect.mapError((error) => new CommandFailed({ message: error.message }))
        )
        const result = yield* Effect.tryPromise({
          try: () => runJob({ page: session.page, steps, stopOn, url: Option.getOrUndefined(url), cleanup: session.cleanup }),
          catch: (error) => new CommandFailed({ message: describe(error) })
        })
        const encoded = encodeResult(result)
        yield* Console.log(
          json
            ? JSON.stringify(encoded)
            : [
                `status: ${encoded.status}`,
                ...("stopReason" in encoded ? [`stopReason: ${encoded.stopReason.code}: ${encoded.stopReason.message}`] : []),
                `results: ${JSON.stringify(encoded.results, null, 2)}`,
                ...(result.cleanup === undefined ? [] : [renderReceipt(result.cleanup)])
              ].join("\n")
        )
        if (result.status === "stopped") {
          return yield* new CommandFailed({ message: `the job stopped: ${result.stopReason.code}` })
        }
        if (result.status === "cleanup-blocked") {
          return yield* new CommandFailed({ message: `cleanup-blocked: ${result.blocker}` })
        }
      })
    )
).pipe(
  Command.withShortDescription("Run a job module's declared steps on a browser page"),
  Command.withDescription(
    "Connects to the provider, opens a page of its own, loads --url (once, when given), runs the module's\n" +
      "`steps` in order with its `stopOn` checked before navigation and before each step, closes its page, the\n" +
      "pages opened from it and its context, prints the result with the cleanup receipt (each item's proof that\n" +
      "it is gone), then disconnects (the browser keeps running).\n" +
      "Exit codes: 0 complete or no steps, 1 stopped (a stop reason), cleanup-blocked (the receipt could not be\n" +
      "verified), a step failed or no browser is available, 2 invalid usage."
  )
)

export const browserCommand = Command.make("browser").pipe(
  Command.withShortDescription("Browser providers and declared-step jobs"),
  Command.withSubcommands([providersCommand, runCommand])
)
