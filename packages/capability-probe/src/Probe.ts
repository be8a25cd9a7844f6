import { mkdtempSync, rmdirSync, rmSync } from "node:fs"
import { mkdtemp, rm, rmdir } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { AGENT_BROWSER, type BrowserDriverBlocker } from "./AgentBrowser.js"
import { assessBanner, untrustedTextReason } from "./Banner.js"
import { BLOCKED_DRIVER_SPEC_INVALID, driverSpecProblem, type DriverSpec, manualSetupSentence } from "./DriverSpec.js"
import { describeThrown, readOutcome } from "./internal/Outcome.js"
import { superviseRunSync } from "./internal/SyncRunner.js"
import { superviseRun } from "./ProcessGroup.js"
import type { ProbeOptions } from "./ProbeOptions.js"
import type { ProbeResult } from "./ProbeResult.js"
import { minimalEnvironment, readResolution, resolverRequest, searchableEntries } from "./Resolve.js"
import type { CleanupReport, RunOutcome, RunRequest } from "./RunCommand.js"

/** Something the probe needs done by whichever driver (async or sync) runs it. */
type Step =
  | { readonly kind: "run"; readonly request: RunRequest }
  | { readonly kind: "makeDirectory" }
  | { readonly kind: "removeDirectory"; readonly path: string }
  | { readonly kind: "both"; readonly steps: readonly [Step, Step] }

/** How a step went: its value, or a sentence saying why it failed. */
type Reply = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly why: string }

type Pipeline<Blocker extends string> = Generator<Step, ProbeResult<Blocker>, Reply>

const DIRECTORY_PREFIX = "capability-probe-"

const result = <Blocker extends string>(
  status: ProbeResult["status"],
  command: string | null,
  version: string | null,
  blocker: Blocker | null,
  detail: string
): ProbeResult<Blocker> => ({ status, command, version, blocker, detail })

const optionsProblem = (options: unknown): string | null => {
  if (options === undefined) return null
  if (typeof options !== "object" || options === null) return "options must be an object"
  const { path, runCommand, platform, cwd } = options as Record<string, unknown>
  if (path !== undefined && typeof path !== "string") return "path must be a string"
  if (runCommand !== undefined && typeof runCommand !== "function") return "runCommand must be a function"
  if (platform !== undefined && typeof platform !== "string") return "platform must be a string"
  if (cwd !== undefined && (typeof cwd !== "string" || !/^(?:\/|[A-Za-z]:\\)/.test(cwd))) return "cwd must be an absolute path"
  return null
}

const cleanupDetail = (cleanup: CleanupReport & { verified: true }): string =>
  cleanup.scope === "process-tree"
    ? "its process group is gone and no process escaped it"
    : cleanup.scope === "process-group"
      ? "its process group is gone (escaped processes cannot be looked for without /proc)"
      : "its direct child exited (on Windows only the direct child is tracked)"

const text = (output: string | Uint8Array): string =>
  typeof output === "string" ? output : Buffer.from(output).toString("utf8")

const byteLength = (output: string | Uint8Array): number =>
  typeof output === "string" ? Buffer.byteLength(output) : output.byteLength

/** Why a finished run cannot be used, or null when it exited 0 within its limits. */
const runProblem = (outcome: RunOutcome, request: RunRequest): string | null => {
  if (outcome.spawnError !== null) return `could not be started (${outcome.spawnError})`
  if (outcome.timedOut) return `did not finish within ${request.timeoutMs / 1000} s and was killed`
  const overflow =
    outcome.overflow ??
    (byteLength(outcome.stdout) > request.maxOutputBytes
      ? "stdout"
      : byteLength(outcome.stderr) > request.maxOutputBytes
        ? "stderr"
        : null)
  if (overflow !== null) return `wrote more than ${request.maxOutputBytes / 1024} KiB to ${overflow} and was killed`
  if (outcome.signal !== null) return `was ended by signal ${outcome.signal}`
  if (outcome.exitCode !== 0) return `exited with code ${outcome.exitCode ?? "unknown"}`
  return null
}

/**
 * A result that says the driver is missing or not the driver also says how a person installs it,
 * when the spec knows; a stray process is not fixed by installing anything.
 */
const withManualSetup = <Blocker extends string>(spec: DriverSpec<Blocker>, verdict: ProbeResult<Blocker>): ProbeResult<Blocker> =>
  spec.manualSetup === undefined || spec.manualSetup.length === 0 || verdict.status === "available" || verdict.blocker === spec.blockers.cleanupFailed
    ? verdict
    : { ...verdict, detail: `${verdict.detail}; ${manualSetupSentence(spec.manualSetup)}` }

function* probePipeline<Blocker extends string>(
  spec: DriverSpec<Blocker>,
  options: ProbeOptions | undefined
): Pipeline<Blocker> {
  const { command, blockers } = spec
  const problem = optionsProblem(options)
  if (problem !== null) return result("unavailable", null, null, blockers.unavailable, `invalid probe options: ${problem}`)

  const platform = options?.platform ?? process.platform
  const entries = searchableEntries(options?.path ?? process.env["PATH"] ?? "", platform)
  if (entries.length === 0) {
    return withManualSetup(spec, result("unavailable", null, null, blockers.unavailable, `${command} is not on PATH: PATH has no absolute directory to search`))
  }
  const env = minimalEnvironment(entries, platform, process.env)

  const resolve = resolverRequest(command, env, platform, options?.cwd ?? process.cwd())
  // The version run's private directory is made while the resolver runs: the probe costs no more
  // than the two processes it has to start.
  const prepared = yield { kind: "both", steps: [{ kind: "run", request: resolve }, { kind: "makeDirectory" }] }
  const [resolved, made] = pairOf(prepared)
  const directory = made.ok && typeof made.value === "string" ? made.value : null
  const verdict = withManualSetup(spec, yield* verify(spec, platform, resolve, resolved, directory === null ? made : directory))
  if (directory === null) return verdict
  const removed = yield { kind: "removeDirectory", path: directory }
  return removed.ok ? verdict : { ...verdict, detail: `${verdict.detail}; its working directory could not be removed (${removed.why})` }
}

const pairOf = (reply: Reply): readonly [Reply, Reply] => {
  if (reply.ok && Array.isArray(reply.value) && reply.value.length === 2) return reply.value as [Reply, Reply]
  const broken: Reply = { ok: false, why: reply.ok ? "the step runner answered out of shape" : reply.why }
  return [broken, broken]
}

function* verify<Blocker extends string>(
  spec: DriverSpec<Blocker>,
  platform: NodeJS.Platform,
  resolve: RunRequest,
  resolved: Reply,
  directory: string | Reply
): Pipeline<Blocker> {
  const { command, blockers } = spec
  const resolveOutcome = resolved.ok ? readOutcome(resolved.value) : resolved.why
  if (typeof resolveOutcome === "string") {
    return result("unavailable", null, null, blockers.unavailable, `${command} could not be resolved: ${resolveOutcome}`)
  }
  if (!resolveOutcome.cleanup.verified) {
    return result(
      "unverified-identity",
      null,
      null,
      blockers.cleanupFailed,
      `resolving ${command} left processes behind: ${resolveOutcome.cleanup.reason}`
    )
  }
  const resolverProblem = runProblem(resolveOutcome, resolve)
  if (resolverProblem !== null && (resolveOutcome.exitCode === null || resolveOutcome.exitCode === 0 || resolveOutcome.spawnError !== null)) {
    return result("unavailable", null, null, blockers.unavailable, `${command} could not be resolved: the resolver ${resolverProblem}`)
  }
  const resolution = readResolution(resolverProblem === null ? text(resolveOutcome.stdout) : "", platform)
  if (resolution.kind === "not-found") {
    return result("unavailable", null, null, blockers.unavailable, `${command} is not on PATH`)
  }
  if (resolution.kind === "refused") {
    return result("unverified-identity", resolution.command, null, blockers.identityUnverified, `${command} was not run: ${resolution.reason}`)
  }
  const driver = resolution.command
  if (typeof directory !== "string") {
    const why = directory.ok ? "no directory was made" : directory.why
    return result("unverified-identity", driver, null, blockers.identityUnverified, `${command} was not run: no empty working directory (${why})`)
  }

  const versionRun: RunRequest = { ...resolve, stage: "version", file: driver, args: [...spec.versionArgs], cwd: directory }
  const ran = yield { kind: "run", request: versionRun }
  const outcome = ran.ok ? readOutcome(ran.value) : ran.why
  if (typeof outcome === "string") {
    return result("unverified-identity", driver, null, blockers.identityUnverified, `${command} --version could not be run: ${outcome}`)
  }
  if (!outcome.cleanup.verified) {
    return result(
      "unverified-identity",
      driver,
      null,
      blockers.cleanupFailed,
      `the version run of ${command} left processes behind: ${outcome.cleanup.reason}`
    )
  }
  const versionProblem = runProblem(outcome, versionRun)
  if (versionProblem !== null) {
    return result("unverified-identity", driver, null, blockers.identityUnverified, `the version run ${versionProblem}`)
  }
  // Whatever the driver writes reaches whoever reads the run; an instruction on stderr is as hostile as one on stdout.
  // Its lines may be as long as the stream's bound allows: only a banner has to be short.
  const stderrReason = untrustedTextReason(text(outcome.stderr).replace(/\n$/, ""), versionRun.maxOutputBytes)
  if (stderrReason !== null) {
    return result("unverified-identity", driver, null, blockers.identityUnverified, `the version run's stderr is not trusted and not shown because ${stderrReason}`)
  }
  const banner = assessBanner(outcome.stdout)
  if (!banner.trusted) {
    return result(
      "unverified-identity",
      driver,
      null,
      blockers.identityUnverified,
      `the version banner is not trusted and not shown because ${banner.reason}`
    )
  }
  const identity = new RegExp(spec.identity.source, spec.identity.flags.replace(/[gy]/g, ""))
  const match = identity.exec(banner.line)
  if (match === null) {
    return result(
      "unverified-identity",
      driver,
      null,
      blockers.identityUnverified,
      `the version banner does not match the identity ${String(identity)} and is not shown`
    )
  }
  return result<Blocker>("available", driver, match.groups?.["version"] ?? banner.line, null, `identity verified; ${cleanupDetail(outcome.cleanup)}`)
}

const failure = (error: unknown, what: string): Reply => ({ ok: false, why: `${what} ${describeThrown(error)}` })

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof value === "object" && value !== null && "then" in value && typeof value.then === "function"

const performAsync = async (step: Step, options: ProbeOptions | undefined): Promise<Reply> => {
  try {
    switch (step.kind) {
      case "both":
        return { ok: true, value: await Promise.all(step.steps.map((each) => performAsync(each, options))) }
      case "run":
        return { ok: true, value: await (options?.runCommand ?? superviseRun)(step.request) }
      case "makeDirectory":
        return { ok: true, value: await mkdtemp(join(tmpdir(), DIRECTORY_PREFIX)) }
      case "removeDirectory":
        // A driver usually leaves its directory empty; only what it wrote needs the recursive walk.
        await rmdir(step.path).catch(() => rm(step.path, { recursive: true, force: true }))
        return { ok: true, value: undefined }
    }
  } catch (error) {
    return failure(error, step.kind === "run" ? "runCommand threw" : "the file system failed with")
  }
}

const performSync = (step: Step, options: ProbeOptions | undefined): Reply => {
  try {
    switch (step.kind) {
      case "both":
        return { ok: true, value: step.steps.map((each) => performSync(each, options)) }
      case "run": {
        if (options?.runCommand === undefined) {
          const answer = superviseRunSync(step.request)
          return "outcome" in answer
            ? { ok: true, value: answer.outcome }
            : { ok: false, why: `the synchronous runner failed (${answer.failure})` }
        }
        const value = options.runCommand(step.request)
        if (isThenable(value)) {
          // A rejected promise nobody awaits would surface as an unhandled rejection in the host.
          Promise.resolve(value).catch(() => undefined)
          return { ok: false, why: "runCommand returned a Promise, but probeDriverSync needs a synchronous runner" }
        }
        return { ok: true, value }
      }
      case "makeDirectory":
        return { ok: true, value: mkdtempSync(join(tmpdir(), DIRECTORY_PREFIX)) }
      case "removeDirectory":
        try {
          rmdirSync(step.path)
        } catch {
          rmSync(step.path, { recursive: true, force: true })
        }
        return { ok: true, value: undefined }
    }
  } catch (error) {
    return failure(error, step.kind === "run" ? "runCommand threw" : "the file system failed with")
  }
}

const invalidSpec = (problem: string): ProbeResult<typeof BLOCKED_DRIVER_SPEC_INVALID> =>
  result("unavailable", null, null, BLOCKED_DRIVER_SPEC_INVALID, `invalid driver spec: ${problem}`)

const runAsync = async <Blocker extends string>(
  spec: DriverSpec<Blocker>,
  options: ProbeOptions | undefined
): Promise<ProbeResult<Blocker>> => {
  const pipeline = probePipeline(spec, options)
  let step = pipeline.next()
  while (step.done !== true) step = pipeline.next(await performAsync(step.value, options))
  return step.value
}

const runSync = <Blocker extends string>(spec: DriverSpec<Blocker>, options: ProbeOptions | undefined): ProbeResult<Blocker> => {
  const pipeline = probePipeline(spec, options)
  let step = pipeline.next()
  while (step.done !== true) step = pipeline.next(performSync(step.value, options))
  return step.value
}

/**
 * Answers, as data, whether `spec`'s driver may be used and by what exact command: resolves the
 * name with the host's resolver, runs the one absolute path it names with the version arguments
 * (no shell, PATH-only environment, fresh empty working directory, 10 s, 64 KiB per stream),
 * screens the banner and matches the identity. Nothing is installed or downloaded, the event loop
 * is never blocked, and it never throws: every failure is a result naming what went wrong.
 */
export const probeDriver = <Blocker extends string>(
  spec: DriverSpec<Blocker>,
  options?: ProbeOptions
): Promise<ProbeResult<Blocker | typeof BLOCKED_DRIVER_SPEC_INVALID>> => {
  const problem = driverSpecProblem(spec)
  return problem === null ? runAsync(spec, options) : Promise.resolve(invalidSpec(problem))
}

/**
 * {@link probeDriver} for callers that cannot await: same rules, same result. The default runner
 * works in a worker thread while this thread waits; a replacement `runCommand` must be synchronous.
 */
export const probeDriverSync = <Blocker extends string>(
  spec: DriverSpec<Blocker>,
  options?: ProbeOptions
): ProbeResult<Blocker | typeof BLOCKED_DRIVER_SPEC_INVALID> => {
  const problem = driverSpecProblem(spec)
  return problem === null ? runSync(spec, options) : invalidSpec(problem)
}

/** {@link probeDriver} for {@link AGENT_BROWSER}: may this session drive a browser, and with what? */
export const probeBrowserDriver = (options?: ProbeOptions): Promise<ProbeResult<BrowserDriverBlocker>> =>
  runAsync(AGENT_BROWSER, options)

/** {@link probeDriverSync} for {@link AGENT_BROWSER}. */
export const probeBrowserDriverSync = (options?: ProbeOptions): ProbeResult<BrowserDriverBlocker> =>
  runSync(AGENT_BROWSER, options)
