import type { Effect } from "effect"
import { type CleanupReceipt, receiptOf } from "./CleanupReceipt.js"
import { describeFailure } from "./internal/failure.js"
import { fromPromise } from "./internal/fromPromise.js"
import { NavigationFailedError, StepFailedError, StepTimeoutError, StopCheckFailedError } from "./JobErrors.js"
import { isStopCode, type StopCode, StopReason, stopReason } from "./StopReason.js"
import { assertNavigableUrl, UnsafeUrlError } from "./UrlGuard.js"

/** What the runner needs of a page to navigate it: a playwright-core page fits. */
export interface JobPage {
  goto(url: string, options: { waitUntil: "domcontentloaded" }): Promise<unknown>
}

export interface StepContext<P> {
  readonly page: P
  /** The results of the steps before this one, in order. */
  readonly results: ReadonlyArray<unknown>
  readonly index: number
  /** Aborted when the step runs out of time: stop waiting and let go of the page. */
  readonly signal: AbortSignal
}

/** One declared step; its return value is appended to the job's results. */
export type Step<P> = (context: StepContext<P>) => unknown

export interface StopContext<P> {
  readonly page: P
  /** `navigate` once before the job's own navigation, `step` before each step. */
  readonly phase: "navigate" | "step"
  readonly url: string | undefined
  /** The step about to run (null before navigation). */
  readonly index: number | null
  readonly results: ReadonlyArray<unknown>
  readonly signal: AbortSignal
}

/**
 * What `stopOn` answers: nothing (go on), or a stop reason, its code, or `{ code, message? }`
 * (so a job module can stop without importing this package).
 */
export type StopAnswer = StopReason | StopCode | { readonly code: StopCode; readonly message?: string } | null | undefined | false

export type StopOn<P> = (context: StopContext<P>) => StopAnswer | Promise<StopAnswer>

export interface RunJobOptions<P> {
  /** Loaded once, before the first step, only when there is a step; http, https or about:blank. */
  readonly url?: string | undefined
  readonly steps: ReadonlyArray<Step<P>>
  readonly stopOn?: StopOn<P> | undefined
  /** Handed to every step; it must be able to `goto` when `url` is given. */
  readonly page: P
  /** Bound on the navigation, each `stopOn` call and each step; default 30000 ms. */
  readonly stepTimeoutMs?: number | undefined
  /**
   * Takes down what the run created (an `AutomationSession`'s `cleanup`); called once after the job,
   * however it ended. Its receipt is in the result, and a receipt that is not verified makes the
   * run `cleanup-blocked` instead of its own outcome.
   */
  readonly cleanup?: (() => Promise<CleanupReceipt>) | undefined
}

/** What the steps came to, before cleanup is judged. */
export type JobOutcome =
  | { readonly status: "no-steps"; readonly results: ReadonlyArray<unknown> }
  | { readonly status: "complete"; readonly results: ReadonlyArray<unknown> }
  | { readonly status: "stopped"; readonly stopReason: StopReason; readonly results: ReadonlyArray<unknown> }

/**
 * A job's result. With `cleanup`, it carries the receipt; when the receipt is not verified the
 * status is `cleanup-blocked` (blocker `BLOCKED_BROWSER_DRIVER_CLEANUP_FAILED`) and `outcome` says
 * what the steps came to: such a run is never a success.
 */
export type JobResult =
  | (JobOutcome & { readonly cleanup?: CleanupReceipt | undefined })
  | {
      readonly status: "cleanup-blocked"
      readonly blocker: "BLOCKED_BROWSER_DRIVER_CLEANUP_FAILED"
      readonly outcome: JobOutcome
      readonly results: ReadonlyArray<unknown>
      readonly cleanup: CleanupReceipt
    }

/** The errors a job rejects with, besides the TypeError of a malformed job. */
export type JobError = UnsafeUrlError | NavigationFailedError | StepFailedError | StepTimeoutError | StopCheckFailedError

export const DEFAULT_STEP_TIMEOUT_MS = 30_000

class TimedOut {
  readonly _tag = "TimedOut"
}

/** Runs `work` with a signal that is aborted when `timeoutMs` passes first. */
const withTimeout = async <A>(timeoutMs: number, work: (signal: AbortSignal) => A | Promise<A>): Promise<A> => {
  const controller = new AbortController()
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort(new Error(`timed out after ${timeoutMs} ms`))
      reject(new TimedOut())
    }, timeoutMs)
  })
  try {
    return await Promise.race([Promise.resolve().then(() => work(controller.signal)), deadline])
  } finally {
    clearTimeout(timer)
  }
}

const isJobPage = (page: unknown): page is JobPage =>
  typeof page === "object" && page !== null && "goto" in page && typeof page.goto === "function"

const toStopReason = (answer: unknown, phase: "navigate" | "step", index: number | null): StopReason | null => {
  if (answer === null || answer === undefined || answer === false) return null
  if (answer instanceof StopReason) return answer
  if (isStopCode(answer)) return stopReason(answer)
  if (typeof answer === "object" && "code" in answer && isStopCode(answer.code)) {
    const message = "message" in answer && typeof answer.message === "string" ? answer.message : undefined
    return stopReason(answer.code, message)
  }
  throw new StopCheckFailedError({ phase, index, reason: `stopOn answered ${describeAnswer(answer)}, which is not a stop reason` })
}

const describeAnswer = (answer: unknown): string => {
  try {
    return JSON.stringify(answer) ?? String(answer)
  } catch {
    return String(answer)
  }
}

/**
 * Runs the caller's declared steps in order and nothing else: no step is invented, no navigation
 * happens but the one to `url`. Returns `no-steps` (nothing ran), `stopped` (a stop reason
 * from `stopOn`, never bypassed) or `complete`. A non-function step is a TypeError before anything
 * runs; an unsafe `url` is an `UnsafeUrlError` before anything runs.
 */
export const runJob = async <P>(options: RunJobOptions<P>): Promise<JobResult> => {
  const { cleanup } = options
  if (cleanup === undefined) return runSteps(options)
  let outcome: JobOutcome
  try {
    outcome = await runSteps(options)
  } catch (error) {
    await takeDown(cleanup)
    throw error
  }
  const receipt = await takeDown(cleanup)
  return receipt.verified
    ? { ...outcome, cleanup: receipt }
    : { status: "cleanup-blocked", blocker: "BLOCKED_BROWSER_DRIVER_CLEANUP_FAILED", outcome, results: outcome.results, cleanup: receipt }
}

/** The cleanup's receipt; a cleanup that throws proves nothing, so its receipt is unverified. */
const takeDown = (cleanup: () => Promise<CleanupReceipt>): Promise<CleanupReceipt> =>
  cleanup().catch((error: unknown) => receiptOf([{ kind: "page", id: "?", removed: false, proof: `cleanup failed: ${describeFailure(error)}` }]))

const runSteps = async <P>(options: RunJobOptions<P>): Promise<JobOutcome> => {
  const { url, steps, stopOn, page } = options
  if (!Array.isArray(steps) || steps.length === 0) return { status: "no-steps", results: [] }
  steps.forEach((step: unknown, index) => {
    if (typeof step !== "function") throw new TypeError(`step ${index} is ${typeof step}, not a function`)
  })
  if (stopOn !== undefined && typeof stopOn !== "function") throw new TypeError("stopOn must be a function")
  const timeoutMs = options.stepTimeoutMs ?? DEFAULT_STEP_TIMEOUT_MS
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new TypeError(`stepTimeoutMs must be a positive number, got ${timeoutMs}`)
  if (url !== undefined) {
    assertNavigableUrl(url)
    if (!isJobPage(page)) throw new TypeError("a job with a url needs a page that can goto")
  }

  const results: Array<unknown> = []
  const check = async (phase: "navigate" | "step", index: number | null): Promise<StopReason | null> => {
    if (stopOn === undefined) return null
    try {
      const answer = await withTimeout(timeoutMs, (signal) => stopOn({ page, phase, url, index, results: [...results], signal }))
      return toStopReason(answer, phase, index)
    } catch (error) {
      if (error instanceof StopCheckFailedError) throw error
      const reason = error instanceof TimedOut ? `no answer within ${timeoutMs} ms` : describeFailure(error)
      throw new StopCheckFailedError({ phase, index, reason })
    }
  }

  if (url !== undefined && isJobPage(page)) {
    const stop = await check("navigate", null)
    if (stop !== null) return { status: "stopped", stopReason: stop, results: [] }
    try {
      await withTimeout(timeoutMs, () => page.goto(url, { waitUntil: "domcontentloaded" }))
    } catch (error) {
      const reason = error instanceof TimedOut ? `no DOMContentLoaded within ${timeoutMs} ms` : describeFailure(error)
      throw new NavigationFailedError({ url, reason })
    }
  }

  for (const [index, step] of steps.entries()) {
    const stop = await check("step", index)
    if (stop !== null) return { status: "stopped", stopReason: stop, results: [...results] }
    try {
      results.push(await withTimeout(timeoutMs, (signal) => step({ page, results: [...results], index, signal })))
    } catch (error) {
      if (error instanceof TimedOut) throw new StepTimeoutError({ index, timeoutMs })
      throw new StepFailedError({ index, reason: describeFailure(error) })
    }
  }
  return { status: "complete", results: [...results] }
}

const isJobError = (error: unknown): error is JobError =>
  error instanceof UnsafeUrlError ||
  error instanceof NavigationFailedError ||
  error instanceof StepFailedError ||
  error instanceof StepTimeoutError ||
  error instanceof StopCheckFailedError

/** {@link runJob} as an Effect; a malformed job (TypeError) is a defect. */
export const runJobEffect = <P>(options: RunJobOptions<P>): Effect.Effect<JobResult, JobError> =>
  fromPromise(() => runJob(options), isJobError)
