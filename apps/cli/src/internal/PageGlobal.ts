import { automationPage, unavailablePage } from "@armory/browser-runtime"
import { acquireBrowserPage } from "@armory/host"
import { Effect } from "effect"

/** Without a provider `page` says so on every call rather than probing for a browser unasked. */
export const NO_BROWSER = "no browser provider was chosen: pass --provider or set ARMORY_BROWSER_PROVIDER"

/**
 * The `page` of a command's host: a real page, in the current scope, when a provider is named and
 * connects; otherwise a page that fails every call naming what is missing (the provider's own error).
 */
export const pageGlobal = (provider: string | undefined) =>
  provider === undefined
    ? Effect.succeed(unavailablePage(NO_BROWSER))
    : acquireBrowserPage(provider).pipe(
        Effect.map(({ session }) => automationPage(session.page)),
        Effect.catch((error) => Effect.succeed(unavailablePage(error.message)))
      )
