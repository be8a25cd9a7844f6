/** The browser providers: `auto` picks the first reachable one of the others, in platform order. */
export const PROVIDERS = {
  AUTO: "auto",
  BROWSEROS: "browseros",
  ASIDE: "aside",
  CHROME_CDP: "chrome-cdp"
} as const

/** A provider that names one concrete browser. */
export type ConcreteProvider = (typeof PROVIDERS)["BROWSEROS" | "ASIDE" | "CHROME_CDP"]

/** Any provider name `connect` accepts. */
export type Provider = ConcreteProvider | (typeof PROVIDERS)["AUTO"]

/** The auto order everywhere but macOS: a user-launched BrowserOS first. */
export const AUTO_ORDER: ReadonlyArray<ConcreteProvider> = Object.freeze([
  PROVIDERS.BROWSEROS,
  PROVIDERS.ASIDE,
  PROVIDERS.CHROME_CDP
])

/** The auto order on macOS, where Aside Browser lives: Aside first. */
export const DARWIN_AUTO_ORDER: ReadonlyArray<ConcreteProvider> = Object.freeze([
  PROVIDERS.ASIDE,
  PROVIDERS.BROWSEROS,
  PROVIDERS.CHROME_CDP
])

export const resolveAutoOrder = (platform: NodeJS.Platform = process.platform): ReadonlyArray<ConcreteProvider> =>
  platform === "darwin" ? DARWIN_AUTO_ORDER : AUTO_ORDER

/** Whether `name` is a concrete provider (not `auto`, not unknown). */
export const isKnownProvider = (name: string): name is ConcreteProvider =>
  name === PROVIDERS.BROWSEROS || name === PROVIDERS.ASIDE || name === PROVIDERS.CHROME_CDP

/** Whether `name` is a provider `connect` accepts, `auto` included. */
export const isProvider = (name: string): name is Provider => name === PROVIDERS.AUTO || isKnownProvider(name)
