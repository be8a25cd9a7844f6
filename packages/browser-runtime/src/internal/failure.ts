import { BrowserUnavailableError, type ProviderAttempt } from "../RuntimeErrors.js"

/** The first line of anything thrown, for the `reason` or `message` of a typed error. */
export const describeFailure = (error: unknown): string =>
  error instanceof Error ? (error.message.split("\n")[0] ?? error.name) : String(error)

/** A single-provider failure: its `attempts` list holds just that attempt. */
export const unavailable = (attempt: ProviderAttempt): BrowserUnavailableError =>
  new BrowserUnavailableError({ ...attempt, attempts: [attempt] })
