/** One tool call the guest made, in the order the host received them. */
export interface ToolCallRecord {
  readonly path: string
  /**
   * `ok`: the tool ran and returned. `error`: it failed, its input was rejected, the path named no
   * tool, or it was still running when the execution ended (its effect is then unknown).
   * `denied`: `authorize` refused it or `maxToolCalls` was reached; the tool did not run. Only the
   * first 100 calls refused for `maxToolCalls` are listed.
   */
  readonly status: "ok" | "error" | "denied"
}

/** What went wrong, as the guest would see it: a tag such as `TypeError` or `Timeout`, and a message. */
export interface ExecuteError {
  readonly _tag: string
  readonly message: string
}

/** The outcome of one execution. Guest faults, timeouts and tool failures are data here, never thrown. */
export interface ExecuteResult {
  readonly status: "completed" | "error" | "timeout"
  /** The JSON value the code returned; absent when it returned nothing or did not complete. */
  readonly result?: unknown
  /** `console.log/info/debug/warn/error` lines, prefixed with their level: `[log] …`, `[warn] …`. */
  readonly logs: ReadonlyArray<string>
  readonly error?: ExecuteError
  /** The first 1 000 calls and the first 100 refused past `maxToolCalls`, in order. */
  readonly calls: ReadonlyArray<ToolCallRecord>
  /** How many calls `calls` leaves out, when it reached those counts. */
  readonly omittedCalls?: number
  /** Set when the result, the error message or the logs were cut to their limits. */
  readonly truncated?: boolean
}
