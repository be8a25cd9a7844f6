import { Schema } from "effect"

/** A provider name that is not `auto`, `browseros`, `aside` or `chrome-cdp`. */
export class UnknownProviderError extends Schema.TaggedError<UnknownProviderError>()("UnknownProviderError", {
  code: Schema.tag("UNKNOWN_PROVIDER"),
  provider: Schema.String
}) {
  override get message(): string {
    return `unknown browser provider ${JSON.stringify(this.provider)}: expected auto, browseros, aside or chrome-cdp`
  }
}

/** One provider that was tried and could not be used. */
export const ProviderAttempt = Schema.Struct({
  provider: Schema.String,
  endpoint: Schema.String,
  reason: Schema.String
})
export type ProviderAttempt = typeof ProviderAttempt.Type

/**
 * No browser could be used: the endpoint did not answer as a browser, the connection failed or
 * dropped. In auto mode `attempts` lists every provider tried, in order.
 */
export class BrowserUnavailableError extends Schema.TaggedError<BrowserUnavailableError>()("BrowserUnavailableError", {
  code: Schema.tag("UNAVAILABLE"),
  provider: Schema.String,
  endpoint: Schema.String,
  reason: Schema.String,
  attempts: Schema.Array(ProviderAttempt)
}) {
  override get message(): string {
    return this.attempts.length > 1
      ? `no browser provider is available: ${this.attempts.map((attempt) => `${attempt.provider} (${attempt.endpoint}): ${attempt.reason}`).join("; ")}`
      : `browser provider ${this.provider} is unavailable at ${this.endpoint}: ${this.reason}`
  }
}

/** playwright-core, the optional peer that drives CDP browsers, could not be loaded. */
export class PlaywrightUnavailableError extends Schema.TaggedError<PlaywrightUnavailableError>()("PlaywrightUnavailableError", {
  code: Schema.tag("PLAYWRIGHT_UNAVAILABLE"),
  reason: Schema.String
}) {
  override get message(): string {
    return `playwright-core is unavailable (install it next to @armory/browser-runtime): ${this.reason}`
  }
}
