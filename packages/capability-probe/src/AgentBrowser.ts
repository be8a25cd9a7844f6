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
 * The browser driver: `agent-browser --version` must print exactly `agent-browser X.Y.Z`, and that
 * banner is the result's `version`, as the driver prints it. Pre-release, `v`-prefixed, capitalised
 * or suffixed banners are not the identity. When it is not available, the result says how a person
 * installs it: the driver's own two supported commands, which nothing here runs.
 */
export const AGENT_BROWSER: DriverSpec<BrowserDriverBlocker> = Object.freeze({
  command: "agent-browser",
  versionArgs: Object.freeze(["--version"]),
  identity: /^agent-browser \d+\.\d+\.\d+$/,
  manualSetup: Object.freeze(["npm install -g agent-browser", "agent-browser install"]),
  blockers: Object.freeze({
    unavailable: BLOCKED_BROWSER_DRIVER_UNAVAILABLE,
    identityUnverified: BLOCKED_BROWSER_DRIVER_IDENTITY_UNVERIFIED,
    cleanupFailed: BLOCKED_BROWSER_DRIVER_CLEANUP_FAILED
  })
})
