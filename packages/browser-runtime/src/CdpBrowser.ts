import type { AutomationPage } from "./AutomationPage.js"

/**
 * The parts of playwright-core's `Browser`, `BrowserContext` and `Page` the runtime uses. A real
 * playwright-core browser fits them, so the package's types do not depend on the optional peer.
 */
export interface CdpPage extends AutomationPage {
  close(): Promise<void>
  isClosed(): boolean
}

export interface CdpContext {
  pages(): ReadonlyArray<CdpPage>
  newPage(): Promise<CdpPage>
  close(): Promise<void>
}

export interface CdpBrowser {
  contexts(): ReadonlyArray<CdpContext>
  newContext(): Promise<CdpContext>
  isConnected(): boolean
  /** On a browser reached over CDP this disconnects; the browser application keeps running. */
  close(): Promise<void>
}

/** playwright-core's `chromium`, as far as connecting over CDP goes. */
export interface CdpChromium {
  connectOverCDP(endpoint: string, options?: { readonly timeout?: number }): Promise<CdpBrowser>
}
