import { Schema } from "effect"

/** One tool call the guest made (`@armory/codemode`'s `ToolCallRecord`; mirrored like `Armed`). */
export const ToolCallRecord = Schema.Struct({
  path: Schema.String,
  status: Schema.Literals(["ok", "error", "denied"])
}).annotate({ identifier: "ToolCallRecord" })
export type ToolCallRecord = typeof ToolCallRecord.Type

/** The outcome of one code-mode execution (`@armory/codemode`'s `ExecuteResult`); guest faults and timeouts are data here. */
export const ExecuteResult = Schema.Struct({
  status: Schema.Literals(["completed", "error", "timeout"]),
  result: Schema.optionalKey(Schema.Unknown),
  logs: Schema.Array(Schema.String),
  error: Schema.optionalKey(Schema.Struct({ _tag: Schema.String, message: Schema.String })),
  calls: Schema.Array(ToolCallRecord),
  omittedCalls: Schema.optionalKey(Schema.Number),
  truncated: Schema.optionalKey(Schema.Boolean)
}).annotate({ identifier: "ExecuteResult" })
export type ExecuteResult = typeof ExecuteResult.Type

/** The longest run a caller may ask for; the sandbox's own default is 30 s. */
export const MAX_EXECUTE_TIMEOUT_MS = 60_000

/** The largest program `POST /codemode/execute` accepts, in characters. */
export const MAX_EXECUTE_CODE_LENGTH = 256 * 1024

/** What `POST /codemode/execute` runs: the body of an async function, with the host's tools. */
export const ExecuteRequest = Schema.Struct({
  code: Schema.String.check(Schema.isMaxLength(MAX_EXECUTE_CODE_LENGTH)),
  globals: Schema.optionalKey(Schema.Array(Schema.String)),
  timeoutMs: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: MAX_EXECUTE_TIMEOUT_MS })))
}).annotate({ identifier: "ExecuteRequest" })
export type ExecuteRequest = typeof ExecuteRequest.Type

/** The messages the code posted through `channel.send` during one execution. */
export const ChannelTranscript = Schema.Struct({
  id: Schema.String,
  messages: Schema.Array(Schema.String)
}).annotate({ identifier: "ChannelTranscript" })

/** An execution's result plus what it posted to the channel. */
export const ExecuteResponse = Schema.Struct({
  ...ExecuteResult.fields,
  channel: ChannelTranscript
}).annotate({ identifier: "ExecuteResponse" })
export type ExecuteResponse = typeof ExecuteResponse.Type
