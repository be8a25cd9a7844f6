import { randomUUID } from "node:crypto"
import { Cause, Effect, Exit, Result, Schema } from "effect"
import { entryAt, isTool, type Tool, type ToolTree } from "../Tool.js"
import type { ToolCallRecord } from "../ExecuteResult.js"
import type { CallOutcome, GuestErrorPayload } from "./Protocol.js"

/** A tool failure that is not a Schema-backed tagged error, kept on the host under the id the guest saw. */
export interface InternalToolError {
  readonly id: string
  readonly path: string
  readonly error: unknown
}

export interface DispatchOptions {
  readonly tools: ToolTree
  readonly maxToolCalls: number
  readonly authorize?: ((call: { path: string; input: unknown }) => boolean | Promise<boolean>) | undefined
  readonly onInternalError: (report: InternalToolError) => void
}

type CallStatus = ToolCallRecord["status"] | "running"

/** How many of the calls refused for `maxToolCalls` `result.calls` lists; later ones are refused unlisted. */
export const MAX_LISTED_OVER_LIMIT = 100

const jsonCodecs = new WeakMap<object, Schema.Codec<unknown, unknown>>()

/** Tool schemas are applied to the JSON form the guest sends and receives. */
const jsonCodec = (schema: Schema.Codec<unknown, unknown>): Schema.Codec<unknown, unknown> => {
  const known = jsonCodecs.get(schema)
  if (known !== undefined) return known
  const codec: Schema.Codec<unknown, unknown> = Schema.toCodecJson(schema)
  jsonCodecs.set(schema, codec)
  return codec
}

const failure = (_tag: string, message: string, fields: Record<string, unknown> = {}): CallOutcome => ({
  ok: false,
  error: { _tag, message, fields }
})

/**
 * The payload of a Schema-backed tagged error: the error class is itself a Schema, and encoding the
 * instance with it yields exactly the fields its author declared public. Anything else is not public.
 */
export const publicErrorPayload = (error: unknown): GuestErrorPayload | undefined => {
  if (!(error instanceof Error)) return undefined
  const tag: unknown = Reflect.get(error, "_tag")
  const schema: unknown = error.constructor
  if (typeof tag !== "string" || !Schema.isSchema(schema)) return undefined
  const encoded = Schema.encodeUnknownResult(jsonCodec(schema as Schema.Codec<unknown, unknown>))(error)
  if (Result.isFailure(encoded) || typeof encoded.success !== "object" || encoded.success === null) return undefined
  const fields = Object.fromEntries(Object.entries(encoded.success).filter(([key]) => key !== "_tag"))
  return { _tag: tag, message: error.message, fields }
}

const runTool = async (tool: Tool, input: unknown): Promise<unknown> => {
  const running = tool.run(input)
  if (!Effect.isEffect(running)) return running
  const exit = await Effect.runPromiseExit(running)
  if (Exit.isSuccess(exit)) return exit.value
  throw Cause.squash(exit.cause)
}

/**
 * The host side of the bridge for one execution: resolves a path to a tool, decodes the input,
 * asks `authorize`, runs the tool, encodes its output, and records every call in order.
 */
export const makeDispatcher = (options: DispatchOptions) => {
  const records: Array<{ path: string; status: CallStatus }> = []

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
    return failure("InternalToolError", `internal tool error [${id}]`)
  }

  // One turn can queue any number of calls; past the limit each costs one shared answer and no
  // Schema work, and only the first few are listed, so a runaway loop cannot stall the host.
  const overLimit = failure("ToolCallLimitExceeded", `this execution may make at most ${options.maxToolCalls} tool calls`)
  let admitted = 0
  let refused = 0

  /** Answers a call refused for `maxToolCalls` synchronously; any other call once it settles. */
  const dispatch = (path: string, inputText: string | undefined): CallOutcome | Promise<CallOutcome> => {
    if (admitted >= options.maxToolCalls) {
      if (refused++ < MAX_LISTED_OVER_LIMIT) records.push({ path, status: "denied" })
      return overLimit
    }
    admitted++
    return admit(path, inputText)
  }

  const admit = async (path: string, inputText: string | undefined): Promise<CallOutcome> => {
    const record: { path: string; status: CallStatus } = { path, status: "running" }
    records.push(record)
    const settle = (status: ToolCallRecord["status"], outcome: CallOutcome) => {
      record.status = status
      return outcome
    }
    const entry = entryAt(options.tools, path)
    if (!isTool(entry)) {
      return settle(
        "error",
        failure("UnknownTool", `tools.${path} is not a tool${entry === undefined ? "" : " (it is a namespace)"}`, { path })
      )
    }
    const raw: unknown = inputText === undefined ? undefined : JSON.parse(inputText)
    // The plain schema reads the common case and words the errors; the JSON form of the schema
    // also accepts what JSON can only spell differently (null for an absent field, dates as text).
    const decoded = Schema.decodeUnknownResult(entry.input)(raw)
    const input = Result.isSuccess(decoded) ? Result.succeed(decoded.success) : Schema.decodeUnknownResult(jsonCodec(entry.input))(raw)
    if (Result.isFailure(input)) {
      const reason = Result.isFailure(decoded) ? decoded.failure.message : input.failure.message
      return settle("error", failure("ToolInputError", `tools.${path}: invalid input: ${reason}`, { path }))
    }
    let allowed: boolean
    try {
      allowed = options.authorize === undefined ? true : (await options.authorize({ path, input: input.success })) === true
    } catch (error) {
      reportInternal({ id: "authorize", path, error })
      allowed = false
    }
    if (!allowed) return settle("denied", failure("ToolCallDenied", `tools.${path} was denied by the host`, { path }))
    let output: unknown
    try {
      output = await runTool(entry, input.success)
    } catch (error) {
      const payload = publicErrorPayload(error)
      return settle("error", payload === undefined ? internal(path, error) : { ok: false, error: payload })
    }
    try {
      const encoded = entry.output === undefined ? output : Schema.encodeUnknownSync(jsonCodec(entry.output))(output)
      const text = encoded === undefined ? undefined : JSON.stringify(encoded)
      return settle("ok", text === undefined ? { ok: true } : { ok: true, output: text })
    } catch (error) {
      // The tool ran, so its effect happened; only its answer broke the tool's own contract.
      record.status = "ok"
      return internal(path, error)
    }
  }

  /** The calls as the result reports them: a call still running when the execution ended is an error. */
  const calls = (): ReadonlyArray<ToolCallRecord> =>
    records.map(({ path, status }) => ({ path, status: status === "running" ? "error" : status }))

  const running = () => records.filter((record) => record.status === "running").length

  return { dispatch, calls, running }
}
