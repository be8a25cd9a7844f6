/** Messages between the host thread and a sandbox worker. Every payload is structured-clone data. */
import { MAX_PATH_CHARS } from "./Prelude.js"
import type { PublicToolError } from "../ToolCall.js"

export interface Limits {
  readonly timeoutMs: number
  readonly memoryLimitBytes: number
  readonly maxStackBytes: number
  readonly maxLogLines: number
  readonly maxResultBytes: number
  readonly maxInputBytes: number
}

export interface RunRequest {
  readonly type: "run"
  readonly runId: number
  readonly code: string
  readonly globals: ReadonlyArray<string>
  readonly limits: Limits
  /** When the execution must be over, in `Date.now()` time: its time limit counted from when it was asked for. */
  readonly deadline: number
}

/** The host's answer to one tool call: the output as JSON text (absent for `undefined`) or an error. */
export type CallOutcome =
  | { readonly ok: true; readonly output?: string }
  | { readonly ok: false; readonly error: GuestErrorPayload }

/** A host error as the guest receives it: rebuilt inside the guest as an `Error` with these fields. */
export type GuestErrorPayload = PublicToolError

export interface CallAnswer {
  readonly callId: number
  readonly outcome: CallOutcome
}

/** The answers to tool calls that finished since the last settle, as `encodeAnswers` writes them. */
export interface SettleRequest {
  readonly type: "settle"
  readonly runId: number
  readonly answers: string
}

export interface CancelRequest {
  readonly type: "cancel"
  readonly runId: number
}

export type ToWorker = RunRequest | SettleRequest | CancelRequest

export interface ToolCall {
  readonly callId: number
  readonly path: string
  readonly input?: string
}

/**
 * The tool calls the guest made in one turn (from one entry into the guest until it waits again), in
 * order, as the prelude wrote them; `decodeCalls` reads them. Tool traffic crosses the thread
 * boundary as text so that the sandbox thread, the busier of the two, neither parses nor clones it.
 */
export interface CallsMessage {
  readonly type: "calls"
  readonly runId: number
  readonly calls: string
}

const malformed = () => new TypeError("the sandbox sent a malformed tool call")

/** A tool path as the prelude writes it: identifiers joined by dots, at most `MAX_PATH_CHARS` long. */
const TOOL_PATH = /^[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)*$/

const isToolPath = (path: string): boolean => path.length <= MAX_PATH_CHARS && TOOL_PATH.test(path)

/**
 * Reads the calls the prelude queued: comma-separated `[callId, path, input?]` entries. The prelude
 * writes them with the intrinsics it captured before user code ran, so a malformed entry means the
 * boundary itself broke; it is refused rather than guessed at.
 */
export const decodeCalls = (text: string): ReadonlyArray<ToolCall> => {
  const entries: unknown = JSON.parse(`[${text}]`)
  if (!Array.isArray(entries)) throw malformed()
  return entries.map((entry: unknown): ToolCall => {
    if (!Array.isArray(entry) || entry.length < 2 || entry.length > 3) throw malformed()
    const [callId, path, input]: Array<unknown> = entry
    if (typeof callId !== "number" || !Number.isSafeInteger(callId) || callId < 0) throw malformed()
    if (typeof path !== "string" || !isToolPath(path) || !(input === undefined || typeof input === "string")) throw malformed()
    return input === undefined ? { callId, path } : { callId, path, input }
  })
}

/** What the guest receives for an error payload that cannot be encoded: an opaque internal error. */
const UNENCODABLE_ERROR = JSON.stringify({ _tag: "InternalToolError", message: "internal tool error [unencodable]", fields: {} })

// A refusal shared by many calls (past `maxToolCalls`) is encoded once. The dispatcher bounds what it
// puts in a payload; should encoding fail anyway, the guest gets an opaque error, never the host a throw.
const encodedErrors = new WeakMap<GuestErrorPayload, string>()
const encodeError = (error: GuestErrorPayload): string => {
  const known = encodedErrors.get(error)
  if (known !== undefined) return known
  let text: string
  try {
    text = JSON.stringify(error)
  } catch {
    text = UNENCODABLE_ERROR
  }
  encodedErrors.set(error, text)
  return text
}

/**
 * The answers as the prelude's `settle` reads them: `[callId, 0, output?]` resolves the call,
 * `[callId, 1, error]` rejects it. An output is already JSON text made by the host, so it is spliced
 * in rather than parsed and encoded again.
 */
export const encodeAnswers = (answers: ReadonlyArray<CallAnswer>): string =>
  `[${answers
    .map(({ callId, outcome }) =>
      outcome.ok
        ? outcome.output === undefined
          ? `[${callId},0]`
          : `[${callId},0,${outcome.output}]`
        : `[${callId},1,${encodeError(outcome.error)}]`
    )
    .join(",")}]`

/** An execution's error, with who raised it: the host decides what a tag raised by the guest may mean. */
export interface SandboxError {
  readonly _tag: string
  readonly message: string
  readonly raisedBy: "guest" | "host"
}

/** What the sandbox decided; the host adds the `calls` it recorded. */
export interface SandboxOutcome {
  readonly status: "completed" | "error" | "timeout"
  readonly resultJson?: string
  readonly logs: ReadonlyArray<string>
  readonly error?: SandboxError
  readonly truncated: boolean
  /** How large the execution's linear memory grew, in bytes (0 when it was never read). */
  readonly memoryBytes: number
}

export interface DoneMessage {
  readonly type: "done"
  readonly runId: number
  readonly outcome: SandboxOutcome
}

export type FromWorker = CallsMessage | DoneMessage

/**
 * Where a worker tells the host, without a message, that it holds a realm built for its next run:
 * one shared 32-bit slot holding how many runs it had been handed when that realm was ready (-1
 * before the first), so the host can tell a current report from a stale one.
 */
export const newReadySignal = (): Int32Array => {
  const signal = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT))
  signal[0] = -1
  return signal
}
