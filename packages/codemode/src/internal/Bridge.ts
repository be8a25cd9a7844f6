import { randomUUID } from "node:crypto"
import { type Context, Result } from "effect"
import { entryAt, isTool, type ToolTree } from "../Tool.js"
import type { ToolCallRecord } from "../ExecuteResult.js"
import { decodeToolInput, encodeToolOutput, MAX_JSON_DEPTH, publicToolError, runTool } from "../ToolCall.js"
import { decodeBounded, encodeBounded } from "./BoundedJson.js"
import type { CallOutcome } from "./Protocol.js"

/** A tool failure that is not a Schema-backed tagged error, kept on the host under the id the guest saw. */
export interface InternalToolError {
  readonly id: string
  readonly path: string
  readonly error: unknown
}

export interface DispatchOptions {
  readonly tools: ToolTree
  readonly maxToolCalls: number
  /** A call's input JSON longer than this is refused before it is parsed. */
  readonly maxInputBytes: number
  /** A tool's encoded output longer than this is an internal error: the guest could not hold it. */
  readonly maxOutputBytes: number
  readonly authorize?: ((call: { path: string; input: unknown }) => boolean | Promise<boolean>) | undefined
  readonly onInternalError: (report: InternalToolError) => void
  /** Fires when the execution is over (its deadline, a cancel, the code failing); every tool still running is told through it. */
  readonly signal: AbortSignal
  /** The services an Effect tool runs with: the caller's logger, log level and tracer. */
  readonly services: Context.Context<never>
}

type CallStatus = ToolCallRecord["status"] | "running"

/** How many of the calls refused for `maxToolCalls` `result.calls` lists; later ones are refused unlisted. */
export const MAX_LISTED_OVER_LIMIT = 100

/** How many admitted calls `result.calls` lists; the rest are counted in `omittedCalls`. */
export const MAX_LISTED_CALLS = 1_000

const failure = (_tag: string, message: string, fields: Record<string, unknown> = {}): CallOutcome => ({
  ok: false,
  error: { _tag, message, fields }
})

/**
 * The host side of the bridge for one execution: resolves a path to a tool, decodes the input,
 * asks `authorize`, runs the tool, encodes its output, and records every call in order. After every
 * wait on the host side it checks that the execution is still on: no tool starts once its deadline
 * passed or it was cancelled.
 */
export const makeDispatcher = (options: DispatchOptions) => {
  const records: Array<{ path: string; status: CallStatus }> = []
  const inFlight = new Set<Promise<unknown>>()
  const issued = new Set<string>()
  let omitted = 0

  const reportInternal = (report: InternalToolError) => {
    try {
      options.onInternalError(report)
    } catch {
      // The host's reporter failing must neither change the guest's answer nor leave the call unanswered.
    }
  }

  const internal = (path: string, error: unknown): CallOutcome => {
    const id = randomUUID().slice(0, 8)
    reportInternal({ id, path, error })
    const message = `internal tool error [${id}]`
    issued.add(message)
    return failure("InternalToolError", message)
  }

  /** A call's entry in `calls`, or a stand-in past the listing limit that only counts it. */
  const record = (path: string, status: CallStatus) => {
    const entry = { path, status }
    if (records.length < MAX_LISTED_CALLS) records.push(entry)
    else omitted++
    return entry
  }

  // One turn can queue any number of calls; past the limit each costs one shared answer and no
  // Schema work, and only the first few are listed, so a runaway loop cannot stall the host.
  const overLimit = failure("ToolCallLimitExceeded", `this execution may make at most ${options.maxToolCalls} tool calls`)
  const over = failure("ExecutionOver", "the execution ended before this tool call could start")
  let admitted = 0
  let refused = 0

  /** Answers a call refused for `maxToolCalls` synchronously; any other call once it settles. */
  const dispatch = (path: string, inputText: string | undefined): CallOutcome | Promise<CallOutcome> => {
    if (admitted >= options.maxToolCalls) {
      if (refused++ < MAX_LISTED_OVER_LIMIT) record(path, "denied")
      else omitted++
      return overLimit
    }
    admitted++
    // Whatever a tool's values do when read, the call ends answered: an internal error at worst.
    const answer = admit(path, inputText).catch((error: unknown) => internal(path, error))
    inFlight.add(answer)
    void answer.finally(() => inFlight.delete(answer))
    return answer
  }

  const admit = async (path: string, inputText: string | undefined): Promise<CallOutcome> => {
    const call = record(path, "running")
    const settle = (status: ToolCallRecord["status"], outcome: CallOutcome) => {
      call.status = status
      return outcome
    }
    if (options.signal.aborted) return settle("denied", over)
    const entry = entryAt(options.tools, path)
    if (!isTool(entry)) {
      return settle(
        "error",
        failure("UnknownTool", `tools.${path} is not a tool${entry === undefined ? "" : " (it is a namespace)"}`, { path })
      )
    }
    const raw = inputText === undefined ? { value: undefined } : decodeBounded(inputText, { maxBytes: options.maxInputBytes, maxDepth: MAX_JSON_DEPTH })
    if ("refused" in raw) return settle("error", failure("ToolInputError", `tools.${path}: invalid input: ${raw.refused}`, { path }))
    let input: Result.Result<unknown, string>
    try {
      input = decodeToolInput(entry, raw.value)
    } catch (error) {
      return settle("error", internal(path, error))
    }
    if (Result.isFailure(input)) return settle("error", failure("ToolInputError", `tools.${path}: invalid input: ${input.failure}`, { path }))
    let allowed: boolean
    try {
      allowed = options.authorize === undefined ? true : (await options.authorize({ path, input: input.success })) === true
    } catch (error) {
      reportInternal({ id: "authorize", path, error })
      allowed = false
    }
    // `authorize` may take its time; the execution may be over by the time it answers.
    if (options.signal.aborted) return settle("denied", over)
    if (!allowed) return settle("denied", failure("ToolCallDenied", `tools.${path} was denied by the host`, { path }))
    let output: unknown
    try {
      output = await runTool(entry, input.success, options.signal, options.services)
    } catch (error) {
      const payload = publicToolError(error)
      return settle("error", payload === undefined ? internal(path, error) : { ok: false, error: payload })
    }
    try {
      const encoded = encodeToolOutput(entry, output)
      if (encoded === undefined) return settle("ok", { ok: true })
      const text = encodeBounded(encoded, { maxDepth: MAX_JSON_DEPTH, maxBytes: options.maxOutputBytes })
      if ("refused" in text) throw new RangeError(`tools.${path} returned a value the guest cannot take: ${text.refused}`)
      return settle("ok", { ok: true, output: text.json })
    } catch (error) {
      // The tool ran, so its effect happened; only its answer broke the tool's own contract.
      call.status = "ok"
      return internal(path, error)
    }
  }

  /** The calls as the result reports them: a call still running when the execution ended is an error. */
  const calls = (): ReadonlyArray<ToolCallRecord> =>
    records.map(({ path, status }) => ({ path, status: status === "running" ? "error" : status }))

  const running = () => records.filter((entry) => entry.status === "running").length

  /** Resolves once every admitted call has answered (a tool that ignores its signal may never). */
  const drained = (): Promise<void> => Promise.allSettled(inFlight).then(() => undefined)

  return {
    dispatch,
    calls,
    running,
    drained,
    /** How many calls `calls()` leaves out, past its listing limits. */
    omitted: () => omitted,
    /** Whether this dispatcher answered a call with exactly this internal error message. */
    issuedInternalError: (message: string) => issued.has(message)
  }
}
