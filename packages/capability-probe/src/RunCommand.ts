/** One process the probe wants run: the resolver, then the driver's version run. */
export interface RunRequest {
  /** `resolve` runs the host's resolver; `version` runs the resolved driver in a fresh private directory. */
  readonly stage: "resolve" | "version"
  /** Absolute path of the program, executed directly (never through a shell). */
  readonly file: string
  readonly args: ReadonlyArray<string>
  /** The complete environment: PATH only (on Windows also ComSpec, PATHEXT and SystemRoot). */
  readonly env: Readonly<Record<string, string>>
  readonly cwd: string
  /** Kill the process (group) after this long. */
  readonly timeoutMs: number
  /** Kill the process (group) once stdout or stderr exceeds this many bytes. */
  readonly maxOutputBytes: number
}

/**
 * Whether every process the run started is gone:
 * - `process-tree`: the POSIX process group is empty and no new process of the run's session or
 *   private working directory is left, and nothing else holds its output pipes (Linux, via /proc);
 * - `process-group`: the POSIX process group is empty (no /proc to look for escapees);
 * - `direct-child`: the direct child exited; nothing is claimed about its descendants (Windows).
 */
export type CleanupReport =
  | { readonly verified: true; readonly scope: "process-tree" | "process-group" | "direct-child" }
  | { readonly verified: false; readonly reason: string }

/** What happened to a run. */
export interface RunOutcome {
  /** What the process wrote, at most `maxOutputBytes` per stream. */
  readonly stdout: string | Uint8Array
  readonly stderr: string | Uint8Array
  readonly exitCode: number | null
  /** The signal that ended the process, e.g. `SIGKILL`, or null. */
  readonly signal: string | null
  readonly timedOut: boolean
  /** The stream that exceeded `maxOutputBytes`, or null. */
  readonly overflow: "stdout" | "stderr" | null
  /** The error code when the program could not be started at all (`ENOENT`, `EACCES`), else null. */
  readonly spawnError: string | null
  readonly cleanup: CleanupReport
}

/**
 * Runs one request. The default runs real processes; a replacement may return synchronously or
 * (for `probeDriver` only) a Promise. Throwing, returning null or a malformed outcome is reported
 * in the probe result, never rethrown.
 */
export type RunCommand = (request: RunRequest) => RunOutcome | null | Promise<RunOutcome | null>
