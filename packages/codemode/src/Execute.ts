import { Effect } from "effect"
import type { ExecuteResult } from "./ExecuteResult.js"
import { assertValidGlobals, globalsStatement, type InvalidGlobalsError } from "./Globals.js"
import { type InternalToolError, makeDispatcher } from "./internal/Bridge.js"
import type { Limits, SandboxOutcome } from "./internal/Protocol.js"
import { runInWorker } from "./internal/WorkerPool.js"
import type { ToolTree } from "./Tool.js"

export type { InternalToolError } from "./internal/Bridge.js"

export interface ExecuteOptions {
  readonly tools: ToolTree
  /** Namespaces of `tools` also bound as bare identifiers: `page` is `tools.page`. */
  readonly globals?: ReadonlyArray<string>
  /** Wall-clock limit for the whole execution, tool calls included. Default 30 000. */
  readonly timeoutMs?: number
  /** Heap limit of the guest. Default 64 MiB. */
  readonly memoryLimitBytes?: number
  /**
   * Calls beyond this many are refused (`status: "denied"`); `calls` lists only the first 100 of
   * those. Default 1 000.
   */
  readonly maxToolCalls?: number
  /** A returned value whose JSON is longer is cut to its head and tail. Default 64 KiB. */
  readonly maxResultBytes?: number
  /** The single authorization point: called with the decoded input before every tool call. */
  readonly authorize?: (call: { path: string; input: unknown }) => boolean | Promise<boolean>
  /**
   * Receives each tool failure that the guest saw only as `internal tool error [id]`. Default: the
   * error is written to stderr with its id.
   */
  readonly onInternalError?: (report: InternalToolError) => void
}

const DEFAULTS = {
  timeoutMs: 30_000,
  memoryLimitBytes: 64 * 1024 * 1024,
  maxToolCalls: 1_000,
  maxResultBytes: 64 * 1024,
  maxLogLines: 200,
  maxStackBytes: 1024 * 1024
} as const

const positive = (name: string, value: number | undefined, fallback: number): number => {
  if (value === undefined) return fallback
  if (!Number.isFinite(value) || value <= 0) throw new RangeError(`${name} must be a positive number, got ${value}`)
  return value
}

const reportToStderr = ({ id, path, error }: InternalToolError) => {
  console.error(`@armory/codemode: internal tool error [${id}] in tools.${path}:`, error)
}

const UNDEFINED_IDENTIFIER = /^'[^']+' is not defined$/

const describeError = (
  outcome: SandboxOutcome,
  globals: ReadonlyArray<string>,
  stillRunning: number
): ExecuteResult["error"] => {
  if (outcome.error === undefined) return undefined
  let { _tag, message } = outcome.error
  if (_tag === "ReferenceError" && UNDEFINED_IDENTIFIER.test(message)) message = `${message}. ${globalsStatement(globals)}`
  if (stillRunning > 0) {
    message +=
      `; ${stillRunning} tool call${stillRunning === 1 ? " was" : "s were"} still running on the host ` +
      'and may have taken effect (listed with status "error")'
  }
  return { _tag, message }
}

/**
 * Reads the guest's result. The prelude writes it with intrinsics user code cannot reach, so text
 * that is not JSON means the boundary broke; that is the execution's error, never a rejection.
 */
const parseResult = (outcome: SandboxOutcome): { outcome: SandboxOutcome; result?: { value: unknown } } => {
  if (outcome.resultJson === undefined) return { outcome }
  try {
    return { outcome, result: { value: JSON.parse(outcome.resultJson) } }
  } catch {
    return {
      outcome: { ...outcome, status: "error", error: { _tag: "MalformedResult", message: "the sandbox returned a result that is not JSON" } }
    }
  }
}

const run = async (code: string, options: ExecuteOptions, signal: AbortSignal | undefined): Promise<ExecuteResult> => {
  const globals = options.globals ?? []
  assertValidGlobals(options.tools, globals)
  const limits: Limits = {
    timeoutMs: positive("timeoutMs", options.timeoutMs, DEFAULTS.timeoutMs),
    memoryLimitBytes: positive("memoryLimitBytes", options.memoryLimitBytes, DEFAULTS.memoryLimitBytes),
    maxResultBytes: positive("maxResultBytes", options.maxResultBytes, DEFAULTS.maxResultBytes),
    maxLogLines: DEFAULTS.maxLogLines,
    maxStackBytes: DEFAULTS.maxStackBytes
  }
  const dispatcher = makeDispatcher({
    tools: options.tools,
    maxToolCalls: options.maxToolCalls ?? DEFAULTS.maxToolCalls,
    authorize: options.authorize,
    onInternalError: options.onInternalError ?? reportToStderr
  })
  const outcome = await runInWorker({
    code,
    globals,
    limits,
    signal,
    onCall: (call) => dispatcher.dispatch(call.path, call.input)
  })
  const parsed = parseResult(outcome)
  const error = describeError(parsed.outcome, globals, dispatcher.running())
  return {
    status: parsed.outcome.status,
    ...(parsed.result === undefined ? {} : { result: parsed.result.value }),
    logs: outcome.logs,
    ...(error === undefined ? {} : { error }),
    calls: dispatcher.calls(),
    ...(outcome.truncated ? { truncated: true } : {})
  }
}

/**
 * Runs `code` as the body of an async function in a fresh QuickJS sandbox on a worker thread, with
 * `tools` (and each name in `globals`) bridged to the host's tools. Guest faults, timeouts, denied
 * calls and tool errors are data in the result; it rejects only for the host's own mistakes:
 * `InvalidGlobalsError` for bad `globals`, `RangeError` for a non-positive limit.
 */
export const execute = (code: string, options: ExecuteOptions): Promise<ExecuteResult> => run(code, options, undefined)

/**
 * The Effect form of `execute`. Interrupting the fiber cancels the execution in its sandbox.
 */
export const executeEffect = (code: string, options: ExecuteOptions): Effect.Effect<ExecuteResult, InvalidGlobalsError> =>
  Effect.try({
    try: () => assertValidGlobals(options.tools, options.globals ?? []),
    catch: (error) => error as InvalidGlobalsError
  }).pipe(Effect.andThen(Effect.promise((signal) => run(code, options, signal))))
