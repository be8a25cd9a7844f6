/** Messages between the host thread and a sandbox worker. Every payload is structured-clone data. */

export interface Limits {
  readonly timeoutMs: number
  readonly memoryLimitBytes: number
  readonly maxStackBytes: number
  readonly maxLogLines: number
  readonly maxResultBytes: number
}

export interface RunRequest {
  readonly type: "run"
  readonly runId: number
  readonly code: string
  readonly globals: ReadonlyArray<string>
  readonly limits: Limits
}

/** The host's answer to one tool call: the output as JSON text (absent for `undefined`) or an error. */
export type CallOutcome =
  | { readonly ok: true; readonly output?: string }
  | { readonly ok: false; readonly error: GuestErrorPayload }

/** A host error as the guest receives it: rebuilt inside the guest as an `Error` with these fields. */
export interface GuestErrorPayload {
  readonly _tag: string
  readonly message: string
  readonly fields: Readonly<Record<string, unknown>>
}

export interface SettleRequest {
  readonly type: "settle"
  readonly runId: number
  readonly callId: number
  readonly outcome: CallOutcome
}

export interface CancelRequest {
  readonly type: "cancel"
  readonly runId: number
}

export type ToWorker = RunRequest | SettleRequest | CancelRequest

export interface CallMessage {
  readonly type: "call"
  readonly runId: number
  readonly callId: number
  readonly path: string
  readonly input?: string
}

/** What the sandbox decided; the host adds the `calls` it recorded. */
export interface SandboxOutcome {
  readonly status: "completed" | "error" | "timeout"
  readonly resultJson?: string
  readonly logs: ReadonlyArray<string>
  readonly error?: { readonly _tag: string; readonly message: string }
  readonly truncated: boolean
}

export interface DoneMessage {
  readonly type: "done"
  readonly runId: number
  readonly outcome: SandboxOutcome
}

export type FromWorker = CallMessage | DoneMessage
