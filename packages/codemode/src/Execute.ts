import { Context, Data, Effect, Layer, Logger } from "effect"
import type { ExecuteResult } from "./ExecuteResult.js"
import { assertValidGlobals, globalsStatement, type InvalidGlobalsError } from "./Globals.js"
import { describeForeign } from "./ForeignValue.js"
import { type InternalToolError, makeDispatcher } from "./internal/Bridge.js"
import { HOST_STOP_TAGS } from "./internal/HostTags.js"
import type { Limits, SandboxError, SandboxOutcome } from "./internal/Protocol.js"
import { INITIAL_MEMORY_BYTES } from "./internal/QuickJs.js"
import { makeSandboxPool, type SandboxPool, type SandboxPoolOptions } from "./internal/SandboxPool.js"
import type { ToolTree } from "./Tool.js"

export type { InternalToolError } from "./internal/Bridge.js"
export type { SandboxPoolOptions } from "./internal/SandboxPool.js"

export interface ExecuteOptions {
  readonly tools: ToolTree
  /** Namespaces of `tools` also bound as bare identifiers: `page` is `tools.page`. */
  readonly globals?: ReadonlyArray<string>
  /** Wall-clock limit for the whole execution, from the call: waiting for a sandbox and tool calls included. Default 30 000. */
  readonly timeoutMs?: number
  /** Every byte the guest can allocate: objects, strings and ArrayBuffer backing stores. Default 64 MiB. */
  readonly memoryLimitBytes?: number
  /**
   * Calls beyond this many are refused (`status: "denied"`); `calls` lists only the first 100 of
   * those. Default 1 000.
   */
  readonly maxToolCalls?: number
  /** A returned value (or an error message) whose JSON is longer is cut to its head and tail. Default 64 KiB. */
  readonly maxResultBytes?: number
  /** A tool call whose input JSON is longer is refused with `ToolInputError` before it is decoded. Default 1 MiB. */
  readonly maxInputBytes?: number
  /** The single authorization point: called with the decoded input before every tool call. */
  readonly authorize?: (call: { path: string; input: unknown }) => boolean | Promise<boolean>
  /**
   * Receives each tool failure that the guest saw only as `internal tool error [id]`, with the real
   * error. The Promise form drops them without one; the Effect form logs them at error level.
   */
  readonly onInternalError?: (report: InternalToolError) => void
}

/** A limit given to `execute` that it cannot honour: named, with the value and the rule it breaks. */
export class InvalidLimitError extends Data.TaggedError("InvalidLimitError")<{
  readonly limit: string
  readonly value: unknown
  readonly rule: string
}> {
  override get message(): string {
    return `${this.limit} must be ${this.rule}, got ${String(this.value)}`
  }
}

const MIB = 1024 * 1024

/** The guest's memory is a 32-bit WebAssembly memory of at most 2 GiB, of which the engine itself takes its start. */
const MAX_MEMORY_LIMIT_BYTES = 2048 * MIB - INITIAL_MEMORY_BYTES

const DEFAULTS = {
  timeoutMs: 30_000,
  memoryLimitBytes: 64 * MIB,
  maxToolCalls: 1_000,
  maxResultBytes: 64 * 1024,
  maxInputBytes: MIB,
  maxLogLines: 200,
  maxStackBytes: MIB
} as const

const integerIn = (limit: string, value: number | undefined, fallback: number, min: number, max: number): number => {
  if (value === undefined) return fallback
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new InvalidLimitError({ limit, value, rule: `a whole number from ${min} to ${max}` })
  }
  return value
}

/** Every limit checked: a `NaN`, a fraction, zero or a negative never disables one. */
const limitsOf = (options: ExecuteOptions): Limits & { readonly maxToolCalls: number } => ({
  timeoutMs: integerIn("timeoutMs", options.timeoutMs, DEFAULTS.timeoutMs, 1, 24 * 60 * 60 * 1000),
  memoryLimitBytes: integerIn("memoryLimitBytes", options.memoryLimitBytes, DEFAULTS.memoryLimitBytes, MIB, MAX_MEMORY_LIMIT_BYTES),
  maxResultBytes: integerIn("maxResultBytes", options.maxResultBytes, DEFAULTS.maxResultBytes, 256, 64 * MIB),
  maxInputBytes: integerIn("maxInputBytes", options.maxInputBytes, DEFAULTS.maxInputBytes, 1, 64 * MIB),
  maxToolCalls: integerIn("maxToolCalls", options.maxToolCalls, DEFAULTS.maxToolCalls, 0, Number.MAX_SAFE_INTEGER),
  maxLogLines: DEFAULTS.maxLogLines,
  maxStackBytes: DEFAULTS.maxStackBytes
})

const UNDEFINED_IDENTIFIER = /^'[^']+' is not defined$/

/**
 * The execution's error as the result reports it. A guest-raised tag that only the host may report
 * becomes `Error` (the claim kept in the message), except an internal tool error this execution's
 * dispatcher really answered, which the guest merely let through.
 */
const describeError = (
  error: SandboxError | undefined,
  globals: ReadonlyArray<string>,
  stillRunning: number,
  issuedInternalError: (message: string) => boolean
): ExecuteResult["error"] => {
  if (error === undefined) return undefined
  let { _tag, message } = error
  if (error.raisedBy === "guest" && HOST_STOP_TAGS.has(_tag) && !(_tag === "InternalToolError" && issuedInternalError(message))) {
    message = `the code threw an error tagged ${_tag}, which only the host reports: ${message}`
    _tag = "Error"
  }
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
      outcome: {
        ...outcome,
        status: "error",
        error: { _tag: "MalformedResult", message: "the sandbox returned a result that is not JSON", raisedBy: "host" }
      }
    }
  }
}

/** Waits for `promise`, at most until `deadline`. */
const until = (promise: Promise<void>, deadline: number): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, Math.max(0, deadline - Date.now()))
    void promise.then(() => {
      clearTimeout(timer)
      resolve()
    })
  })

const runOn = async (
  pool: SandboxPool,
  code: string,
  options: ExecuteOptions,
  signal: AbortSignal,
  services: Context.Context<never>
): Promise<ExecuteResult> => {
  const started = Date.now()
  const globals = options.globals ?? []
  assertValidGlobals(options.tools, globals)
  const { maxToolCalls, ...limits } = limitsOf(options)
  const over = new AbortController()
  const end = () => over.abort()
  signal.addEventListener("abort", end, { once: true })
  const expiry = setTimeout(end, limits.timeoutMs)
  try {
    const dispatcher = makeDispatcher({
      tools: options.tools,
      maxToolCalls,
      maxInputBytes: limits.maxInputBytes,
      maxOutputBytes: limits.memoryLimitBytes,
      authorize: options.authorize,
      onInternalError: options.onInternalError ?? (() => undefined),
      signal: over.signal,
      services
    })
    const outcome = await pool.run({
      code,
      globals,
      limits,
      deadline: started + limits.timeoutMs,
      signal,
      onCall: (call) => dispatcher.dispatch(call.path, call.input)
    })
    // A call the guest left running when it returned (fire and forget) is reported as it ended, if
    // it ends in time; an execution that failed or was stopped is over, and its tools are told so.
    if (outcome.status === "completed") await until(dispatcher.drained(), started + limits.timeoutMs)
    over.abort()
    const parsed = parseResult(outcome)
    const error = describeError(parsed.outcome.error, globals, dispatcher.running(), dispatcher.issuedInternalError)
    const omitted = dispatcher.omitted()
    return {
      status: parsed.outcome.status,
      ...(parsed.result === undefined ? {} : { result: parsed.result.value }),
      logs: outcome.logs,
      ...(error === undefined ? {} : { error }),
      calls: dispatcher.calls(),
      ...(omitted > 0 ? { omittedCalls: omitted } : {}),
      ...(outcome.truncated ? { truncated: true } : {})
    }
  } finally {
    clearTimeout(expiry)
    signal.removeEventListener("abort", end)
  }
}

/** The sandbox pool as an Effect service: its workers live as long as the layer's scope. */
export class Sandboxes extends Context.Service<
  Sandboxes,
  { readonly pool: SandboxPool }
>()("@armory/codemode/Sandboxes") {
  static readonly layer = (options: SandboxPoolOptions = {}): Layer.Layer<Sandboxes> =>
    Layer.effect(
      Sandboxes,
      Effect.map(
        Effect.acquireRelease(
          Effect.sync(() => makeSandboxPool(options)),
          (pool) => Effect.promise(() => pool.close())
        ),
        (pool) => ({ pool })
      )
    )
}

/** What a pool offers: `execute` on its workers, and `close` to end them. */
export interface SandboxPoolClient {
  readonly execute: (code: string, options: ExecuteOptions) => Promise<ExecuteResult>
  /** Cancels what is queued or running and ends every worker. */
  readonly close: () => Promise<void>
}

/**
 * The Promise faces run `executeEffect` with no logger: a library writes nothing to the console, so
 * what the Effect form would log goes nowhere here (`onInternalError` receives it instead).
 */
const runQuietly = <A, E>(effect: Effect.Effect<A, E>): Promise<A> => Effect.runPromise(Effect.provideService(effect, Logger.CurrentLoggers, new Set()))

/**
 * A bounded pool of sandboxes for a host that runs many executions: at most `maxWorkers` (default
 * `availableParallelism()`) at once, the rest queued first come first served, their wait counting
 * against their time limit. Close it when done; idle workers never keep the process alive.
 */
export const createSandboxPool = (options: SandboxPoolOptions = {}): SandboxPoolClient => {
  const pool = makeSandboxPool(options)
  return {
    execute: (code, executeOptions) => runQuietly(Effect.provideService(executeEffect(code, executeOptions), Sandboxes, { pool })),
    close: pool.close
  }
}

/**
 * Runs `code` as the body of an async function in a fresh QuickJS sandbox on a worker thread, with
 * `tools` (and each name in `globals`) bridged to the host's tools. Guest faults, timeouts, denied
 * calls and tool errors are data in the result; it rejects only for the host's own mistakes:
 * `InvalidGlobalsError` for bad `globals`, `InvalidLimitError` for a limit it cannot honour. It
 * starts a sandbox worker for this one execution; a host running many uses `createSandboxPool`.
 */
export const execute = (code: string, options: ExecuteOptions): Promise<ExecuteResult> => runQuietly(executeEffect(code, options))

/**
 * The Effect form of `execute`: on the `Sandboxes` pool when one is provided, otherwise on a worker
 * of its own for this execution. Interrupting the fiber cancels the execution in its sandbox and
 * aborts the tools still running; internal tool errors are logged at error level unless
 * `onInternalError` is given.
 */
export const executeEffect = (
  code: string,
  options: ExecuteOptions
): Effect.Effect<ExecuteResult, InvalidGlobalsError | InvalidLimitError> =>
  Effect.gen(function* () {
    yield* Effect.try({
      try: () => {
        assertValidGlobals(options.tools, options.globals ?? [])
        limitsOf(options)
      },
      catch: (error) => error as InvalidGlobalsError | InvalidLimitError
    })
    const reported: Array<InternalToolError> = []
    const withReporter: ExecuteOptions =
      options.onInternalError === undefined ? { ...options, onInternalError: (report) => void reported.push(report) } : options
    const provided = yield* Effect.serviceOption(Sandboxes)
    // An Effect tool runs with the caller's services: its logs go where the caller's go, its spans under the caller's.
    const services = yield* Effect.context<never>()
    const result = yield* provided._tag === "Some"
      ? Effect.promise((signal) => runOn(provided.value.pool, code, withReporter, signal, services))
      : Effect.acquireUseRelease(
          Effect.sync(() => makeSandboxPool({ maxWorkers: 1 })),
          (pool) => Effect.promise((signal) => runOn(pool, code, withReporter, signal, services)),
          (pool) => Effect.promise(() => pool.close())
        )
    for (const { id, path, error } of reported) {
      yield* Effect.logError(`internal tool error [${id}] in tools.${path}`, describeForeign(error))
    }
    return result
  })
