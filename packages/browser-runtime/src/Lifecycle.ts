import type { CdpContext, CdpPage } from "./CdpBrowser.js"
import type { BrowserConnection, CdpConnection } from "./Connect.js"
import { unavailable } from "./internal/failure.js"

/** A page to automate, with what the adapter created and must clean up. */
export interface AutomationSession {
  readonly page: CdpPage
  readonly context: CdpContext
  /** The adapter opened this page; `cleanup` closes it. */
  readonly ownsPage: boolean
  /** The adapter created this context; `cleanup` closes it. */
  readonly ownsContext: boolean
  /** Closes exactly what the adapter created (page, then context); the user's pages stay open. */
  readonly cleanup: () => Promise<void>
}

export interface AutomationPageOptions {
  /**
   * Open the page in the browser's default context (the user's profile: cookies, logins) instead
   * of a fresh isolated context. Default false.
   */
  readonly reuseDefaultContext?: boolean
}

const closeOwned = async (session: Pick<AutomationSession, "page" | "context" | "ownsPage" | "ownsContext">): Promise<void> => {
  if (session.ownsPage && !session.page.isClosed()) await session.page.close()
  if (session.ownsContext) await session.context.close()
}

/**
 * Opens a page for automation on a CDP connection: in a new context of its own, or with
 * `reuseDefaultContext` a new page in the user's default context. It never takes over a page the
 * user already has open. Aside connections are driven through their REPL session instead and are
 * refused with `BrowserUnavailableError`.
 */
export const getAutomationPage = async (
  connection: BrowserConnection,
  options: AutomationPageOptions = {}
): Promise<AutomationSession> => {
  if (connection.kind !== "cdp") {
    throw unavailable({
      provider: connection.provider,
      endpoint: connection.command,
      reason: "Aside is driven through its REPL session (connection.session), not a CDP page"
    })
  }
  const { browser } = connection satisfies CdpConnection
  const defaultContext = browser.contexts()[0]
  const reuse = options.reuseDefaultContext === true && defaultContext !== undefined
  const context = reuse ? defaultContext : await browser.newContext()
  const ownsContext = !reuse
  let page: CdpPage
  try {
    page = await context.newPage()
  } catch (error) {
    if (ownsContext) await context.close().catch(() => undefined)
    throw error
  }
  const owned = { page, context, ownsPage: true, ownsContext }
  return { ...owned, cleanup: () => closeOwned(owned) }
}

/**
 * Lets go of the browser: a CDP browser is disconnected (the application and the user's profile
 * keep running), an Aside session closes the tabs it opened and ends its REPL process.
 */
export const disconnect = async (connection: BrowserConnection): Promise<void> => {
  if (connection.kind === "aside") {
    await connection.session.close()
    return
  }
  // On a browser reached with connectOverCDP, `close` only drops the connection (and the
  // contexts this connection created); it never quits the browser.
  await connection.browser.close()
}
