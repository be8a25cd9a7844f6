import {
  type AutomationSession,
  type BrowserConnection,
  BrowserUnavailableError,
  type ConcreteProvider,
  connect,
  disconnect,
  type Environment,
  getAutomationPage,
  PROVIDERS,
  probeTarget,
  resolveAsideCommand,
  resolveAutoOrder,
  resolveCdpUrl
} from "@armory/browser-runtime"
import { Data, Effect } from "effect"

/** How long a provider's endpoint gets to answer a probe. */
export const PROVIDER_PROBE_TIMEOUT_MS = 2000

/** One provider's probe: `available`, or `unavailable` with the runtime's typed error saying why. */
export interface ProviderProbe {
  readonly provider: ConcreteProvider
  readonly endpoint: string
  readonly status: "available" | "unavailable"
  readonly error: BrowserUnavailableError | null
}

/** The auto order for a platform and a probe of each provider in it (nothing is launched). */
export interface ProviderReport {
  readonly platform: string
  readonly order: ReadonlyArray<ConcreteProvider>
  readonly providers: ReadonlyArray<ProviderProbe>
}

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error))

const probeProvider = async (provider: ConcreteProvider, env: Environment): Promise<ProviderProbe> => {
  const endpoint = provider === PROVIDERS.ASIDE ? resolveAsideCommand({ env }) : resolveCdpUrl(provider, { env })
  return probeTarget({ provider, endpoint, timeoutMs: PROVIDER_PROBE_TIMEOUT_MS, env }).then(
    () => ({ provider, endpoint, status: "available" as const, error: null }),
    (error: unknown) => ({
      provider,
      endpoint,
      status: "unavailable" as const,
      error:
        error instanceof BrowserUnavailableError
          ? error
          : new BrowserUnavailableError({ provider, endpoint, reason: describe(error), attempts: [] })
    })
  )
}

/** Probes every provider of the platform's auto order, all at once. */
export const probeProviders = async (
  options: { readonly platform?: NodeJS.Platform | undefined; readonly env?: Environment | undefined } = {}
): Promise<ProviderReport> => {
  const platform = options.platform ?? process.platform
  const env = options.env ?? process.env
  const order = resolveAutoOrder(platform)
  return { platform, order, providers: await Promise.all(order.map((provider) => probeProvider(provider, env))) }
}

/** No page could be opened: the provider did not connect, or gave no page. */
export class PageUnavailable extends Data.TaggedError("PageUnavailable")<{ readonly message: string; readonly cause: unknown }> {}

/**
 * A page of its own in the browser the provider connects to (`auto` or undefined: the platform's
 * order), released with the scope: page, context and connection, the browser itself left running.
 */
export const acquireBrowserPage = (provider: string | undefined) =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: async () => {
        const connection: BrowserConnection = await connect(provider === undefined ? {} : { provider })
        try {
          return { connection, session: await getAutomationPage(connection) }
        } catch (error) {
          await disconnect(connection)
          throw error
        }
      },
      catch: (cause) => new PageUnavailable({ message: describe(cause), cause })
    }),
    ({ connection, session }: { readonly connection: BrowserConnection; readonly session: AutomationSession }) =>
      Effect.promise(async () => {
        await session.cleanup().catch(() => undefined)
        await disconnect(connection).catch(() => undefined)
      })
  )
