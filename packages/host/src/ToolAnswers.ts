import { randomUUID } from "node:crypto"
import { decodeToolInput, describeForeign, encodeToolOutput, type PublicToolError, publicToolError, runTool, type Tool } from "@armory/codemode"
import { Effect, Result } from "effect"

/**
 * One tool call answered for a caller outside code mode (an MCP client, a hook): the output in its
 * JSON form, or the refusal as its public payload (`GateRefused` with `unmet`, …). What is not a
 * Schema-backed refusal is opaque to the caller, as it is to a guest: `InternalToolError` with an id,
 * the cause logged under that id.
 */
export type ToolAnswer = { readonly ok: true; readonly output: unknown } | { readonly ok: false; readonly error: PublicToolError }

const refusal = (_tag: string, message: string): ToolAnswer => ({ ok: false, error: { _tag, message, fields: {} } })

/** Calls `tool` with JSON `input` by the same rules code mode calls it; never fails. */
export const answerToolCall = (tool: Tool, input: unknown): Effect.Effect<ToolAnswer> =>
  Effect.gen(function* () {
    const internal = (cause: unknown) => {
      const id = randomUUID().slice(0, 8)
      return Effect.logError(`internal tool error [${id}]`, describeForeign(cause)).pipe(Effect.as(refusal("InternalToolError", `internal tool error [${id}]`)))
    }
    const decoded = yield* Effect.try({ try: () => decodeToolInput(tool, input), catch: (cause) => cause }).pipe(Effect.result)
    if (Result.isFailure(decoded)) return yield* internal(decoded.failure)
    if (Result.isFailure(decoded.success)) return refusal("ToolInputError", `invalid input: ${decoded.success.failure}`)
    const value = decoded.success.success
    const services = yield* Effect.context<never>()
    const ran = yield* Effect.tryPromise({ try: (signal) => runTool(tool, value, signal, services), catch: (cause) => cause }).pipe(Effect.result)
    if (Result.isFailure(ran)) {
      const error = publicToolError(ran.failure)
      return error === undefined ? yield* internal(ran.failure) : ({ ok: false, error } satisfies ToolAnswer)
    }
    const encoded = yield* Effect.try({ try: () => encodeToolOutput(tool, ran.success), catch: (cause) => cause }).pipe(Effect.result)
    if (Result.isFailure(encoded)) return yield* internal(encoded.failure)
    return { ok: true, output: encoded.success } satisfies ToolAnswer
  })
