import { BrowserUnavailableError, type ConcreteProvider, PROVIDERS } from "@armory/browser-runtime"
import { Schema } from "effect"
import type { Assert, Equals } from "./internal/TypeEquality.js"

/**
 * A concrete browser provider. `@armory/browser-runtime` declares provider names as plain
 * constants, so the Schema is declared here and pinned to the package's type (as {@link Armed} is).
 */
export const BrowserProviderName = Schema.Literals([PROVIDERS.BROWSEROS, PROVIDERS.ASIDE, PROVIDERS.CHROME_CDP]).annotate({
  identifier: "BrowserProviderName"
})

export type BrowserProviderNameMatchesPackage = Assert<Equals<typeof BrowserProviderName.Type, ConcreteProvider>>

/**
 * One provider's probe: `available` when its endpoint answers as a browser, else `unavailable`
 * with the runtime's own typed error (`BrowserUnavailableError`, code `UNAVAILABLE`) saying why.
 */
export const BrowserProviderProbe = Schema.Struct({
  provider: BrowserProviderName,
  endpoint: Schema.String,
  status: Schema.Literals(["available", "unavailable"]),
  error: Schema.NullOr(BrowserUnavailableError)
}).annotate({ identifier: "BrowserProviderProbe" })
export type BrowserProviderProbe = typeof BrowserProviderProbe.Type

/** `GET /browser/providers`: the server's platform, its auto order and a probe of each provider in it. */
export const BrowserProviders = Schema.Struct({
  platform: Schema.String,
  order: Schema.Array(BrowserProviderName),
  providers: Schema.Array(BrowserProviderProbe)
}).annotate({ identifier: "BrowserProviders" })
export type BrowserProviders = typeof BrowserProviders.Type
