import { existsSync } from "node:fs"
import type { CdpBrowser, CdpContext, CdpDownload, CdpPage, CdpSession, CdpTargetInfo } from "./CdpBrowser.js"
import { type CleanupItem, type CleanupReceipt, receiptOf } from "./CleanupReceipt.js"
import type { BrowserConnection, CdpConnection } from "./Connect.js"
import { describeFailure, unavailable } from "./internal/failure.js"

/** A page to automate, with what the adapter created and must clean up. */
export interface AutomationSession {
  readonly page: CdpPage
  readonly context: CdpContext
  /** The adapter opened this page; `cleanup` closes it, and every page opened from it. */
  readonly ownsPage: boolean
  /** The adapter created this context; `cleanup` closes it. */
  readonly ownsContext: boolean
  /**
   * Closes exactly what the adapter created (downloads, popups, the page, then the context; the
   * user's pages stay open), then re-reads the browser's targets to prove each is gone. Calling it
   * again answers the same receipt.
   */
  readonly cleanup: () => Promise<CleanupReceipt>
}

export interface AutomationPageOptions {
  /**
   * Open the page in the browser's default context (the user's profile: cookies, logins) instead
   * of a fresh isolated context. Default false.
   */
  readonly reuseDefaultContext?: boolean
}

const targetIds = async (session: CdpSession): Promise<ReadonlyArray<CdpTargetInfo>> => (await session.send("Target.getTargets")).targetInfos

const contextIds = async (session: CdpSession): Promise<ReadonlyArray<string>> =>
  (await session.send("Target.getBrowserContexts")).browserContextIds

/** The one id in `after` that `before` lacks, or null when there is not exactly one. */
const onlyNew = (before: ReadonlyArray<string>, after: ReadonlyArray<string>): string | null => {
  const added = after.filter((id) => !before.includes(id))
  return added.length === 1 ? (added[0] ?? null) : null
}

/** Everything the adapter created in one session, and how to take it all down with proof. */
class OwnedResources {
  private readonly pages = new Set<CdpPage>()
  private readonly targets = new Set<string>()
  private readonly downloads: Array<CdpDownload> = []
  private receipt: Promise<CleanupReceipt> | null = null

  constructor(
    private readonly session: CdpSession,
    private readonly context: CdpContext,
    private readonly contextId: string | null,
    private readonly ownsContext: boolean
  ) {}

  /** Tracks a page the adapter opened, and through it every popup it opens, recursively. */
  adopt(page: CdpPage, targetId: string | null): void {
    this.pages.add(page)
    if (targetId !== null) this.targets.add(targetId)
    page.on("download", (download) => this.downloads.push(download))
    page.on("popup", (popup) => {
      this.adopt(popup, null)
      this.recordOpenedTargets().catch(() => undefined)
    })
  }

  /** Targets opened by a target the adapter owns (popups, `target=_blank`) are the adapter's too. */
  private async recordOpenedTargets(): Promise<void> {
    for (;;) {
      const opened = (await targetIds(this.session)).filter(
        (target) => target.openerId !== undefined && this.targets.has(target.openerId) && !this.targets.has(target.targetId)
      )
      if (opened.length === 0) return
      for (const target of opened) this.targets.add(target.targetId)
    }
  }

  cleanup(): Promise<CleanupReceipt> {
    this.receipt ??= this.takeDown()
    return this.receipt
  }

  private async takeDown(): Promise<CleanupReceipt> {
    const items: Array<CleanupItem> = []
    for (const download of this.downloads) items.push(this.ownsContext ? await removeDownload(download) : userDownload(download))
    await this.recordOpenedTargets().catch(() => undefined)
    for (const page of this.pages) if (!page.isClosed()) await page.close().catch(() => undefined)
    if (this.ownsContext) await this.context.close().catch(() => undefined)
    let remaining: ReadonlyArray<CdpTargetInfo> | null = null
    let contexts: ReadonlyArray<string> | null = null
    let reread = ""
    try {
      remaining = await targetIds(this.session)
      contexts = await contextIds(this.session)
    } catch (error) {
      reread = describeFailure(error)
    }
    const remainingIds = new Set(remaining?.map((target) => target.targetId) ?? [])
    if (this.targets.size < this.pages.size) {
      items.push({ kind: "page", id: "?", removed: false, proof: `${this.pages.size} pages were opened but only ${this.targets.size} could be identified among the browser's targets` })
    }
    for (const id of this.targets) {
      items.push(
        remaining === null
          ? { kind: "page", id, removed: false, proof: `the target list could not be re-read: ${reread}` }
          : remainingIds.has(id)
            ? { kind: "page", id, removed: false, proof: "still in the browser's target list" }
            : { kind: "page", id, removed: true, proof: "absent from Target.getTargets" }
      )
    }
    if (this.ownsContext) {
      const id = this.contextId ?? "?"
      items.push(
        this.contextId === null
          ? { kind: "context", id, removed: false, proof: "the context could not be identified when it was created" }
          : contexts === null
            ? { kind: "context", id, removed: false, proof: `the context list could not be re-read: ${reread}` }
            : contexts.includes(this.contextId)
              ? { kind: "context", id, removed: false, proof: "still in Target.getBrowserContexts" }
              : { kind: "context", id, removed: true, proof: "absent from Target.getBrowserContexts" }
      )
    }
    await this.session.detach().catch(() => undefined)
    return receiptOf(items)
  }
}

/**
 * A download in the user's default context goes where the user's browser settings put it, out of
 * the adapter's reach, so it cannot be proven gone.
 */
const userDownload = (download: CdpDownload): CleanupItem => ({
  kind: "download",
  id: download.suggestedFilename(),
  removed: false,
  proof: "started in the user's default context: the browser saved it to the user's download folder"
})

/** Cancels a download, deletes its file and checks the file is gone. */
const removeDownload = async (download: CdpDownload): Promise<CleanupItem> => {
  const id = download.suggestedFilename()
  try {
    await download.cancel()
    const path = await download.path().catch(() => null)
    await download.delete()
    if (path === null) return { kind: "download", id, removed: true, proof: "cancelled before any file was kept" }
    return existsSync(path)
      ? { kind: "download", id, removed: false, proof: `${path} still exists` }
      : { kind: "download", id, removed: true, proof: `${path} is absent` }
  } catch (error) {
    return { kind: "download", id, removed: false, proof: `could not remove it: ${describeFailure(error)}` }
  }
}

const openIn = async (browser: CdpBrowser, session: CdpSession, reuse: CdpContext | undefined) => {
  const contextsBefore = reuse === undefined ? await contextIds(session) : []
  const context = reuse ?? (await browser.newContext())
  const contextId = reuse === undefined ? onlyNew(contextsBefore, await contextIds(session)) : null
  const before = (await targetIds(session)).map((target) => target.targetId)
  let page: CdpPage
  try {
    page = await context.newPage()
  } catch (error) {
    if (reuse === undefined) await context.close().catch(() => undefined)
    throw error
  }
  const opened = (await targetIds(session)).filter(
    (target) => target.type === "page" && (contextId === null || target.browserContextId === contextId)
  )
  return { context, contextId, page, targetId: onlyNew(before, opened.map((target) => target.targetId)) }
}

/**
 * Opens a page for automation on a CDP connection: in a new context of its own, or with
 * `reuseDefaultContext` a new page in the user's default context. It never takes over a page the
 * user already has open, and pages opened from its page are its own. Aside connections are driven
 * through their REPL session instead and are refused with `BrowserUnavailableError`.
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
  const reuse = options.reuseDefaultContext === true ? defaultContext : undefined
  const session = await browser.newBrowserCDPSession()
  let opened: Awaited<ReturnType<typeof openIn>>
  try {
    opened = await openIn(browser, session, reuse)
  } catch (error) {
    await session.detach().catch(() => undefined)
    throw error
  }
  const ownsContext = reuse === undefined
  const owned = new OwnedResources(session, opened.context, opened.contextId, ownsContext)
  owned.adopt(opened.page, opened.targetId)
  return { page: opened.page, context: opened.context, ownsPage: true, ownsContext, cleanup: () => owned.cleanup() }
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
