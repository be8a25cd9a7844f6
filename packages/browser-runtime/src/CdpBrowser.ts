import type { AutomationDialog, AutomationFrame, AutomationPage } from "./AutomationPage.js"

/** A download as Playwright reports it. */
export interface CdpDownload {
  cancel(): Promise<void>
  delete(): Promise<void>
  path(): Promise<string | null>
  suggestedFilename(): string
}

/** A CDP target as `Target.getTargets` lists it. */
export interface CdpTargetInfo {
  readonly targetId: string
  readonly type: string
  readonly openerId?: string
  readonly browserContextId?: string
}

/** What the runtime asks of a browser CDP session: target identities, to prove what it closed is gone. */
export interface CdpSession {
  send(method: "Target.getTargets"): Promise<{ readonly targetInfos: ReadonlyArray<CdpTargetInfo> }>
  send(method: "Target.getBrowserContexts"): Promise<{ readonly browserContextIds: ReadonlyArray<string> }>
  send(method: "Browser.setDownloadBehavior", params: { readonly behavior: "default" }): Promise<unknown>
  detach(): Promise<void>
}

/**
 * The parts of playwright-core's `Browser`, `BrowserContext` and `Page` the runtime uses. A real
 * playwright-core browser fits them, so the package's types do not depend on the optional peer.
 */
export interface CdpPage extends AutomationPage {
  close(): Promise<void>
  on(event: "dialog", listener: (dialog: AutomationDialog) => void): unknown
  on(event: "framenavigated", listener: (frame: AutomationFrame) => void): unknown
  on(event: "popup", listener: (page: CdpPage) => void): unknown
  on(event: "download", listener: (download: CdpDownload) => void): unknown
}

export interface CdpContext {
  pages(): ReadonlyArray<CdpPage>
  newPage(): Promise<CdpPage>
  close(): Promise<void>
}

export interface CdpBrowser {
  contexts(): ReadonlyArray<CdpContext>
  newContext(): Promise<CdpContext>
  newBrowserCDPSession(): Promise<CdpSession>
  isConnected(): boolean
  /** On a browser reached over CDP this disconnects; the browser application keeps running. */
  close(): Promise<void>
}

/** playwright-core's `chromium`, as far as connecting over CDP goes. */
export interface CdpChromium {
  connectOverCDP(endpoint: string, options?: { readonly timeout?: number }): Promise<CdpBrowser>
}
