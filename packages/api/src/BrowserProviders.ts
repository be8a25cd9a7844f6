import { Schema } from "effect"

/** A concrete browser provider (`@armory/browser-runtime`'s `ConcreteProvider`; mirrored like `Armed`). */
export const BrowserProviderName = Schema.Literals(["browseros", "aside", "chrome-cdp"]).annotate({
  identifier: "BrowserProviderName"
})
export type BrowserProviderName = typeof BrowserProviderName.Type

/** One provider tried in auto mode, and why it was passed over. */
export const ProviderAttempt = Schema.Struct({
  provider: Schema.String,
  endpoint: Schema.String,
  reason: Schema.String
})

/**
 * The fields of `@armory/browser-runtime`'s `BrowserUnavailableError` (code `UNAVAILABLE`): no browser
 * could be used. It is data in a probe's answer here, not an error of the route.
 */
export const BrowserUnavailable = Schema.TaggedStruct("BrowserUnavailableError", {
  code: Schema.tag("UNAVAILABLE"),
  provider: Schema.String,
  endpoint: Schema.String,
  reason: Schema.String,
  attempts: Schema.Array(ProviderAttempt)
}).annotate({ identifier: "BrowserUnavailableError" })
export type BrowserUnavailable = typeof BrowserUnavailable.Type

/**
 * One provider's probe: `available` when its endpoint answers as a browser, else `unavailable`
 * with the runtime's own typed error saying why.
 */
export const BrowserProviderProbe = Schema.Struct({
  provider: BrowserProviderName,
  endpoint: Schema.String,
  status: Schema.Literals(["available", "unavailable"]),
  error: Schema.NullOr(BrowserUnavailable)
}).annotate({ identifier: "BrowserProviderProbe" })
export type BrowserProviderProbe = typeof BrowserProviderProbe.Type

/** `GET /browser/providers`: the server's platform, its auto order and a probe of each provider in it. */
export const BrowserProviders = Schema.Struct({
  platform: Schema.String,
  order: Schema.Array(BrowserProviderName),
  providers: Schema.Array(BrowserProviderProbe)
}).annotate({ identifier: "BrowserProviders" })
export type BrowserProviders = typeof BrowserProviders.Type
