import { isProvider, PROVIDERS, type Provider } from "./Provider.js"
import { UnknownProviderError } from "./RuntimeErrors.js"

/** The environment variables the runtime reads; values are strings or absent, like `process.env`. */
export type Environment = Readonly<Record<string, string | undefined>>

export const DEFAULT_BROWSEROS_CDP_URL = "http://127.0.0.1:9100"
export const DEFAULT_CHROME_CDP_URL = "http://127.0.0.1:9222"
export const DEFAULT_ASIDE_COMMAND = "aside"

/**
 * Each setting with the variable that names it and the k-skill variable accepted as an alias;
 * the `ARMORY_*` name wins when both are set.
 */
export const ENVIRONMENT_VARIABLES = {
  provider: ["ARMORY_BROWSER_PROVIDER", "KSKILL_BROWSER_PROVIDER"],
  browserosCdpUrl: ["ARMORY_BROWSEROS_CDP_URL", "KSKILL_BROWSEROS_CDP_URL"],
  chromeCdpUrl: ["ARMORY_CHROME_CDP_URL", "KSKILL_CHROME_CDP_URL"],
  asideCommand: ["ARMORY_ASIDE_COMMAND", "KSKILL_ASIDE_COMMAND"]
} as const

/** The first non-blank value of a setting's variables, trimmed. */
export const readSetting = (env: Environment, setting: keyof typeof ENVIRONMENT_VARIABLES): string | undefined => {
  for (const name of ENVIRONMENT_VARIABLES[setting]) {
    const value = env[name]?.trim()
    if (value !== undefined && value !== "") return value
  }
  return undefined
}

/**
 * The provider to use: the explicit one, else the environment's, else `auto`. Names are matched
 * case-insensitively; an unknown name fails with `UnknownProviderError` rather than falling back.
 */
export const normalizeProvider = (provider?: string, env: Environment = process.env): Provider => {
  const explicit = provider?.trim()
  const name = (explicit === undefined || explicit === "" ? readSetting(env, "provider") : explicit) ?? PROVIDERS.AUTO
  const lower = name.toLowerCase()
  if (!isProvider(lower)) throw new UnknownProviderError({ provider: name })
  return lower
}

/**
 * The CDP address of a CDP provider. An explicit `cdpUrl` is for the provider the caller chose;
 * in auto mode each provider keeps its own address from the environment or its default. Aside has
 * no CDP address (it is driven through its REPL): null, as in k-skill.
 */
export function resolveCdpUrl(
  provider: typeof PROVIDERS.BROWSEROS | typeof PROVIDERS.CHROME_CDP,
  options?: { readonly cdpUrl?: string | undefined; readonly env?: Environment }
): string
export function resolveCdpUrl(provider: string, options?: { readonly cdpUrl?: string | undefined; readonly env?: Environment }): string | null
export function resolveCdpUrl(
  provider: string,
  options: { readonly cdpUrl?: string | undefined; readonly env?: Environment } = {}
): string | null {
  if (provider !== PROVIDERS.BROWSEROS && provider !== PROVIDERS.CHROME_CDP) return null
  const explicit = options.cdpUrl?.trim()
  if (explicit !== undefined && explicit !== "") return explicit
  const env = options.env ?? process.env
  return provider === PROVIDERS.CHROME_CDP
    ? (readSetting(env, "chromeCdpUrl") ?? DEFAULT_CHROME_CDP_URL)
    : (readSetting(env, "browserosCdpUrl") ?? DEFAULT_BROWSEROS_CDP_URL)
}

/** The command that starts Aside's REPL. */
export const resolveAsideCommand = (options: { readonly asideCommand?: string | undefined; readonly env?: Environment } = {}): string => {
  const explicit = options.asideCommand?.trim()
  if (explicit !== undefined && explicit !== "") return explicit
  return readSetting(options.env ?? process.env, "asideCommand") ?? DEFAULT_ASIDE_COMMAND
}
