import { type BrowserDriverBlocker, probeBrowserDriver, type ProbeResult } from "@armory/capability-probe"

/** The drivers a host probes, by the name a caller passes. */
export const PROBE_DRIVERS = {
  "agent-browser": (): Promise<ProbeResult<BrowserDriverBlocker>> => probeBrowserDriver()
} as const

export type ProbeDriverName = keyof typeof PROBE_DRIVERS

/** The identity-verified probe of a driver (default `agent-browser`); never rejects, an absent driver is a result. */
export const probe = (driver: ProbeDriverName = "agent-browser"): Promise<ProbeResult<BrowserDriverBlocker>> => PROBE_DRIVERS[driver]()
