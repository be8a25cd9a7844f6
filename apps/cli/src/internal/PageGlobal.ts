import { resolve } from "node:path"
import { automationPage, type CleanupReceipt, type Page, unavailablePage } from "@armory/browser-runtime"
import { acquireBrowserPage } from "@armory/host"
import { Effect, type Scope } from "effect"

/** Without a provider `page` says so on every call rather than probing for a browser unasked. */
export const NO_BROWSER = "no browser provider was chosen: pass --provider or set ARMORY_BROWSER_PROVIDER"

/** Where `page.screenshot` writes, relative to the working directory. */
export const ARTIFACTS_DIRECTORY = ".armory/artifacts"

/** A command's page, and the cleanup that proves what it opened is gone (none when no browser was opened). */
export interface PageGlobal {
  readonly page: Page
  readonly cleanup: (() => Promise<CleanupReceipt>) | undefined
}

/**
 * The `page` of a command's host: a real page, in the current scope, when a provider is named and
 * connects; otherwise a page that fails every call naming what is missing (the provider's own error).
 */
export const pageGlobal = (provider: string | undefined): Effect.Effect<PageGlobal, never, Scope.Scope> =>
  provider === undefined
    ? Effect.succeed({ page: unavailablePage(NO_BROWSER), cleanup: undefined })
    : acquireBrowserPage(provider).pipe(
        Effect.map(({ session }) => ({
          page: automationPage(session.page, { artifactsDirectory: resolve(ARTIFACTS_DIRECTORY) }),
          cleanup: session.cleanup
        })),
        Effect.catch((error) => Effect.succeed({ page: unavailablePage(error.message), cleanup: undefined }))
      )
