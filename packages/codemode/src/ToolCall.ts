import { Cause, Context, Effect, Exit, Result, Schema } from "effect"
import type { Tool } from "./Tool.js"
import { encodeBounded } from "./internal/BoundedJson.js"
import { callForms, expandCall, objectShape } from "./internal/CallForms.js"

/** Nesting allowed in anything a tool call decodes from its caller or encodes for it. */
export const MAX_JSON_DEPTH = 64

/** The largest public error payload (its fields, as JSON) a caller is handed; a larger one is opaque. */
export const MAX_ERROR_FIELDS_BYTES = 64 * 1024

/** A tool's refusal as a caller outside the host receives it: its tag, its message and its declared fields. */
export interface PublicToolError {
  readonly _tag: string
  readonly message: string
  readonly fields: Readonly<Record<string, unknown>>
}

const jsonCodecs = new WeakMap<object, Schema.Codec<unknown, unknown>>()

/** Tool schemas are applied to the JSON form a caller sends and receives. */
const jsonCodec = (schema: Schema.Codec<unknown, unknown>): Schema.Codec<unknown, unknown> => {
  const known = jsonCodecs.get(schema)
  if (known !== undefined) return known
  const codec: Schema.Codec<unknown, unknown> = Schema.toCodecJson(schema)
  jsonCodecs.set(schema, codec)
  return codec
}

/**
 * A tool's input read from the JSON a caller sent, or why it was refused. The shorter calls the
 * schema admits are expanded first: no value for an input object with no required field is `{}`,
 * and a lone string for one with a single field it can fill is that field. The plain schema reads the
 * common case and words the errors; only when it refuses is the JSON form of the schema tried, for
 * what JSON can only spell differently (null for an absent field, dates as text). A schema that
 * throws is a defect of the tool and is thrown on.
 */
export const decodeToolInput = (tool: Tool, value: unknown): Result.Result<unknown, string> => {
  const input = expandCall(callForms(tool.input), value)
  const plain = Schema.decodeUnknownResult(tool.input)(input)
  if (Result.isSuccess(plain)) return Result.succeed(plain.success)
  const fromJson = Schema.decodeUnknownResult(jsonCodec(tool.input))(input)
  if (Result.isSuccess(fromJson)) return Result.succeed(fromJson.success)
  const shape = objectShape(tool.input)
  if (shape !== undefined && !isPlainObject(input)) return Result.fail(`expected an object ${shape}, got ${kindOf(input)}`)
  const refusal: unknown = plain.failure
  return Result.fail(typeof refusal === "object" && refusal !== null && "message" in refusal ? String(refusal.message) : String(refusal))
}

const isPlainObject = (value: unknown): boolean => typeof value === "object" && value !== null && !Array.isArray(value)

/** A value's kind as a refusal names it: `a string ("css")`, `an array`, `null`. */
const kindOf = (value: unknown): string => {
  if (value === null) return "null"
  if (value === undefined) return "no argument"
  if (Array.isArray(value)) return "an array"
  if (typeof value === "string") return `a string (${JSON.stringify(value.length <= 40 ? value : `${value.slice(0, 40)}…`)})`
  return `a ${typeof value}`
}

/**
 * Runs a tool on decoded input; an Effect-returning tool is interrupted when `signal` aborts, as a
 * Promise-returning one is told through it. An Effect runs with `services`, the caller's: its
 * logger, log level and tracer (a span it opens is a child of the caller's), not a fresh runtime's.
 */
export const runTool = async (tool: Tool, input: unknown, signal: AbortSignal, services: Context.Context<never> = Context.empty()): Promise<unknown> => {
  const running = tool.run(input, { signal })
  if (!Effect.isEffect(running)) return running
  const exit = await Effect.runPromiseExitWith(services)(running, { signal })
  if (Exit.isSuccess(exit)) return exit.value
  throw Cause.squash(exit.cause)
}

/** A tool's answer in its JSON form (through its output schema, when it has one); throws when the answer breaks that schema. */
export const encodeToolOutput = (tool: Tool, output: unknown): unknown =>
  tool.output === undefined ? output : Schema.encodeUnknownSync(jsonCodec(tool.output))(output)

/**
 * The public payload of a Schema-backed tagged error: the error class is itself a Schema, and
 * encoding the instance with it yields exactly the fields its author declared public. Anything else
 * is not public (undefined), and neither is a payload nested deeper or larger than a caller is handed.
 */
export const publicToolError = (error: unknown): PublicToolError | undefined => {
  // The error is the tool's value: any read of it (a getter, a Proxy trap) may throw, and then it is not public.
  try {
    if (!(error instanceof Error)) return undefined
    const tag: unknown = Reflect.get(error, "_tag")
    const schema: unknown = error.constructor
    if (typeof tag !== "string" || !Schema.isSchema(schema)) return undefined
    const encoded = Schema.encodeUnknownResult(jsonCodec(schema as Schema.Codec<unknown, unknown>))(error)
    if (Result.isFailure(encoded) || typeof encoded.success !== "object" || encoded.success === null) return undefined
    const fields = Object.fromEntries(Object.entries(encoded.success).filter(([key]) => key !== "_tag"))
    const read: unknown = Reflect.get(error, "message")
    const message = typeof read === "string" ? read : ""
    const checked = encodeBounded({ tag, message, fields }, { maxDepth: MAX_JSON_DEPTH, maxBytes: MAX_ERROR_FIELDS_BYTES })
    return "json" in checked ? { _tag: tag, message, fields } : undefined
  } catch {
    return undefined
  }
}
