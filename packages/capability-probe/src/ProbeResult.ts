/**
 * What a probe found:
 * - `available`: the command resolved to exactly one absolute path, its version banner passed the
 *   trust screen and matched the driver's identity pattern, and every process it started is gone.
 * - `unavailable`: nothing usable answers to the name (not on PATH, no absolute PATH entries, the
 *   resolver could not run) or the probe was given bad input.
 * - `unverified-identity`: something answers to the name, but it was not proven to be the driver
 *   (or its processes were not proven gone). Never invoke it.
 */
export type ProbeStatus = "available" | "unavailable" | "unverified-identity"

/**
 * The answer of a probe, always exactly these five keys in this order.
 *
 * `available` always comes with `blocker: null`, the resolved absolute path in `command` and the
 * version taken from the verified banner. Every other status carries a blocker and `version: null`.
 * `detail` is written by the probe itself: it never quotes the driver's output.
 */
export interface ProbeResult<Blocker extends string = string> {
  readonly status: ProbeStatus
  /** The absolute path the name resolved to, or null when there was no single trustworthy path. */
  readonly command: string | null
  /** The version captured by the identity pattern; null unless `status` is `available`. */
  readonly version: string | null
  readonly blocker: Blocker | null
  /** One human-readable sentence saying why; never contains the driver's banner. */
  readonly detail: string
}
