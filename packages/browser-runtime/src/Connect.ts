import type { Effect } from "effect"
import { type AsideSession, AsideSession as Aside, probeAside } from "./Aside.js"
import type { CdpBrowser, CdpChromium } from "./CdpBrowser.js"
import { type Environment, normalizeProvider, resolveAsideCommand, resolveCdpUrl } from "./Environment.js"
import { describeFailure, unavailable } from "./internal/failure.js"
import { fromPromise } from "./internal/fromPromise.js"
import { loadChromium } from "./internal/loadChromium.js"
import { type CdpVersion, probeCdp } from "./ProbeCdp.js"
import { type ConcreteProvider, PROVIDERS, resolveAutoOrder } from "./Provider.js"
import {
  BrowserUnavailableError,
  PlaywrightUnavailableError,
  type ProviderAttempt,
  UnknownProviderError
} from "./RuntimeErrors.js"

/** A browser reached over CDP through playwright-core. */
export interface CdpConnection {
  readonly kind: "cdp"
  readonly provider: typeof PROVIDERS.BROWSEROS | typeof PROVIDERS.CHROME_CDP
  readonly cdpUrl: string
  readonly browser: CdpBrowser
}

/** Aside Browser reached through a persistent `aside repl` session. */
export interface AsideConnection {
  readonly kind: "aside"
  readonly provider: typeof PROVIDERS.ASIDE
  readonly command: string
  readonly session: AsideSession
}

export type BrowserConnection = CdpConnection | AsideConnection

/** What a probe is asked: the provider and its endpoint (a CDP address, or Aside's command). */
export interface ProbeTarget {
  readonly provider: ConcreteProvider
  readonly endpoint: string
  readonly timeoutMs: number
  readonly env: Environment
}

/**
 * A probe replacement: resolves when the target may be connected to, rejects otherwise. An answer of
 * `{ ok: false }` (with a `reason`, when it has one) is a "no" too, as a probe that answers instead
 * of throwing says it.
 */
export type Probe = (target: ProbeTarget) => Promise<unknown>

/** Connects to a CDP endpoint (a browser websocket, or the http address when not probed). */
export type ConnectLoader = (endpoint: string, options: { readonly timeoutMs: number }) => Promise<CdpBrowser>

export interface ConnectOptions {
  /** `auto` (default), `browseros`, `aside` or `chrome-cdp`; default from the environment. */
  readonly provider?: string
  /** The CDP address of the chosen provider; in auto mode each provider keeps its own. */
  readonly cdpUrl?: string
  readonly asideCommand?: string
  /** Default `process.env`. */
  readonly env?: Environment
  /** Decides the auto order; default `process.platform`. */
  readonly platform?: NodeJS.Platform
  /** `false` skips probing; a function replaces {@link probeTarget}. */
  readonly probe?: false | Probe
  /** Default 2000 ms. */
  readonly probeTimeoutMs?: number
  /** Default 10000 ms. */
  readonly connectTimeoutMs?: number
  /** Replaces the playwright-core connect. */
  readonly connectLoader?: ConnectLoader
  /** Supplies playwright-core's `chromium` for this call; default a lazy `import("playwright-core")`. */
  readonly chromiumLoader?: () => Promise<CdpChromium>
}

const DEFAULT_CONNECT_TIMEOUT_MS = 10_000
const DEFAULT_PROBE_TIMEOUT_MS = 2000

/**
 * The default probe: `/json/version` for a CDP provider (resolving to the verified version),
 * a read-only tab listing for Aside.
 */
export const probeTarget: Probe = (target) =>
  target.provider === PROVIDERS.ASIDE
    ? probeAside(target.endpoint, { timeoutMs: target.timeoutMs, env: target.env })
    : probeCdp(target.endpoint, { timeoutMs: target.timeoutMs, provider: target.provider })

const isCdpVersion = (value: unknown): value is CdpVersion =>
  typeof value === "object" && value !== null && "webSocketDebuggerUrl" in value && typeof value.webSocketDebuggerUrl === "string"

const loadChromiumWith = async (loader: () => Promise<CdpChromium>): Promise<CdpChromium> => {
  try {
    return await loader()
  } catch (error) {
    throw error instanceof PlaywrightUnavailableError ? error : new PlaywrightUnavailableError({ reason: describeFailure(error) })
  }
}

const connectOne = async (provider: ConcreteProvider, options: ConnectOptions, explicitCdpUrl: string | undefined): Promise<BrowserConnection> => {
  const env = options.env ?? process.env
  const endpoint =
    provider === PROVIDERS.ASIDE
      ? resolveAsideCommand({ asideCommand: options.asideCommand, env })
      : resolveCdpUrl(provider, { cdpUrl: explicitCdpUrl, env })
  const timeoutMs = options.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS
  let probed: unknown = null
  if (options.probe !== false) {
    try {
      probed = await (options.probe ?? probeTarget)({ provider, endpoint, timeoutMs, env })
    } catch (error) {
      throw error instanceof BrowserUnavailableError ? error : unavailable({ provider, endpoint, reason: describeFailure(error) })
    }
    if (typeof probed === "object" && probed !== null && (probed as { readonly ok?: unknown }).ok === false) {
      const given = (probed as { readonly reason?: unknown }).reason
      throw unavailable({ provider, endpoint, reason: typeof given === "string" && given !== "" ? given : "the probe answered { ok: false }" })
    }
  }
  if (provider === PROVIDERS.ASIDE) {
    const session = await Aside.open(endpoint, { timeoutMs, env })
    return { kind: "aside", provider, command: endpoint, session }
  }
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS
  // A fresh probe names the browser's websocket; connecting to it saves playwright a second lookup.
  const target = isCdpVersion(probed) ? probed.webSocketDebuggerUrl : endpoint
  const connector: ConnectLoader =
    options.connectLoader ??
    (async (address, { timeoutMs: timeout }) => {
      const chromium = await loadChromiumWith(options.chromiumLoader ?? loadChromium)
      const browser = await chromium.connectOverCDP(address, { timeout })
      // Connecting redirects the default context's downloads (the user's own tabs) into Playwright's
      // temporary folder, deleted at disconnect; this puts them back where the user's settings say.
      const session = await browser.newBrowserCDPSession()
      try {
        await session.send("Browser.setDownloadBehavior", { behavior: "default" })
      } finally {
        await session.detach()
      }
      return browser
    })
  try {
    const browser = await connector(target, { timeoutMs: connectTimeoutMs })
    return { kind: "cdp", provider, cdpUrl: endpoint, browser }
  } catch (error) {
    if (error instanceof PlaywrightUnavailableError) throw error
    throw unavailable({ provider, endpoint, reason: `connect failed: ${describeFailure(error)}` })
  }
}

/**
 * Connects to a browser the user runs. A named provider is probed and connected or fails; `auto`
 * tries the platform's order and takes the first that probes and connects. Rejects with
 * `UnknownProviderError`, `BrowserUnavailableError` or `PlaywrightUnavailableError`; never launches
 * a browser. An explicit `cdpUrl` needs a named CDP provider (a TypeError in auto mode).
 */
export const connect = async (options: ConnectOptions = {}): Promise<BrowserConnection> => {
  const provider = normalizeProvider(options.provider, options.env ?? process.env)
  if (options.cdpUrl !== undefined && provider !== PROVIDERS.BROWSEROS && provider !== PROVIDERS.CHROME_CDP) {
    throw new TypeError(`cdpUrl belongs to one CDP provider: name it (browseros or chrome-cdp), not ${provider}`)
  }
  if (provider !== PROVIDERS.AUTO) return connectOne(provider, options, options.cdpUrl)
  const attempts: Array<ProviderAttempt> = []
  for (const candidate of resolveAutoOrder(options.platform ?? process.platform)) {
    try {
      return await connectOne(candidate, options, undefined)
    } catch (error) {
      if (!(error instanceof BrowserUnavailableError)) throw error
      attempts.push(...error.attempts)
    }
  }
  const last = attempts.at(-1)
  throw new BrowserUnavailableError({
    provider: PROVIDERS.AUTO,
    endpoint: last?.endpoint ?? "",
    reason: "no provider in the auto order is available",
    attempts
  })
}

/** {@link connect} as an Effect. */
export const connectEffect = (
  options: ConnectOptions = {}
): Effect.Effect<BrowserConnection, UnknownProviderError | BrowserUnavailableError | PlaywrightUnavailableError> =>
  fromPromise(
    () => connect(options),
    (error) =>
      error instanceof UnknownProviderError || error instanceof BrowserUnavailableError || error instanceof PlaywrightUnavailableError
  )
