import type { DriverSpec } from "./DriverSpec.js"

/** `agent-browser` is not on PATH (or nothing usable answers to the name). */
export const BLOCKED_BROWSER_DRIVER_UNAVAILABLE = "BLOCKED_BROWSER_DRIVER_UNAVAILABLE"
/** Something named `agent-browser` exists but did not prove it is agent-browser. */
export const BLOCKED_BROWSER_DRIVER_IDENTITY_UNVERIFIED = "BLOCKED_BROWSER_DRIVER_IDENTITY_UNVERIFIED"
/** A process started while probing `agent-browser` could not be proven gone. */
export const BLOCKED_BROWSER_DRIVER_CLEANUP_FAILED = "BLOCKED_BROWSER_DRIVER_CLEANUP_FAILED"

export type BrowserDriverBlocker =
  | typeof BLOCKED_BROWSER_DRIVER_UNAVAILABLE
  | typeof BLOCKED_BROWSER_DRIVER_IDENTITY_UNVERIFIED
  | typeof BLOCKED_BROWSER_DRIVER_CLEANUP_FAILED

/**
 * The browser driver: `agent-browser --version` must print exactly `agent-browser X.Y.Z`.
 * Pre-release, `v`-prefixed, capitalised or suffixed banners are not the identity.
 */
export const AGENT_BROWSER: DriverSpec<BrowserDriverBlocker> = Object.freeze({
  command: "agent-browser",
  versionArgs: Object.freeze(["--version"]),
  identity: /^agent-browser (?<version>\d+\.\d+\.\d+)$/,
  blockers: Object.freeze({
    unavailable: BLOCKED_BROWSER_DRIVER_UNAVAILABLE,
    identityUnverified: BLOCKED_BROWSER_DRIVER_IDENTITY_UNVERIFIED,
    cleanupFailed: BLOCKED_BROWSER_DRIVER_CLEANUP_FAILED
  })
})
