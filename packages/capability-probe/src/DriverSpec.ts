/** The three blocker codes a driver names for itself, one per way a probe can fail. */
export interface DriverBlockers<Blocker extends string = string> {
  /** Nothing usable answers to the command name. */
  readonly unavailable: Blocker
  /** Something answers to the name but was not proven to be the driver. */
  readonly identityUnverified: Blocker
  /** A process started by the probe could not be proven gone. */
  readonly cleanupFailed: Blocker
}

/** Describes an external driver so the same probe discipline serves any command-line tool. */
export interface DriverSpec<Blocker extends string = string> {
  /** The bare command name looked up on PATH, e.g. `agent-browser`: letters, digits, `.`, `_`, `+`, `-`. */
  readonly command: string
  /** Arguments that make the driver print its version banner, e.g. `["--version"]`. */
  readonly versionArgs: ReadonlyArray<string>
  /**
   * Matched against the whole banner (one line, ANSI colour removed). A named group `version`
   * supplies the result's `version`; without it the whole banner is the version.
   */
  readonly identity: RegExp
  readonly blockers: DriverBlockers<Blocker>
  /**
   * The commands a person runs, in order, to install the driver by hand, named in the `detail` of
   * every result that is not `available`. The probe never runs them, and says so.
   */
  readonly manualSetup?: ReadonlyArray<string> | undefined
}

/** The sentence a blocked result ends with when the spec names how to install the driver by hand. */
export const manualSetupSentence = (commands: ReadonlyArray<string>): string =>
  `to install it by hand run ${commands.map((command) => `\`${command}\``).join(", then ")}; do not run these automatically, ask the user`

/** Returned for a spec the probe cannot use; the detail names the field that is wrong. */
export const BLOCKED_DRIVER_SPEC_INVALID = "BLOCKED_DRIVER_SPEC_INVALID"

const COMMAND_NAME = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,127}$/

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null

/** The reason a value is not a usable DriverSpec, or null when it is one. */
export const driverSpecProblem = (spec: unknown): string | null => {
  if (!isRecord(spec)) return "the spec must be an object"
  const { command, versionArgs, identity, blockers } = spec
  if (typeof command !== "string" || !COMMAND_NAME.test(command)) {
    return "command must be a bare name of letters, digits, '.', '_', '+' or '-' (at most 128 characters, no path)"
  }
  if (!Array.isArray(versionArgs) || !versionArgs.every((arg) => typeof arg === "string" && !arg.includes("\0"))) {
    return "versionArgs must be an array of strings without NUL characters"
  }
  if (!(identity instanceof RegExp)) return "identity must be a RegExp"
  if (!isRecord(blockers)) return "blockers must be an object with unavailable, identityUnverified and cleanupFailed"
  for (const key of ["unavailable", "identityUnverified", "cleanupFailed"] as const) {
    const code = blockers[key]
    if (typeof code !== "string" || code.length === 0) return `blockers.${key} must be a non-empty string`
  }
  const { manualSetup } = spec
  if (manualSetup !== undefined && !(Array.isArray(manualSetup) && manualSetup.length <= 8 && manualSetup.every((line) => typeof line === "string" && /^[^\p{Cc}\p{Cf}`]{1,200}$/u.test(line)))) {
    return "manualSetup must be at most 8 commands, each 1 to 200 characters with no control characters or backticks"
  }
  return null
}
