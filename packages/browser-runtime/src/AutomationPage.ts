import { randomBytes } from "node:crypto"
import { mkdir, open } from "node:fs/promises"
import { join } from "node:path"
import { isClosedFailure, isPlaywrightTimeout, navigationReason, selectorFailure } from "./internal/PageFailure.js"
import { cutAtCharacter, cutAtLine, type RefEntry, snapshotRefs } from "./internal/SnapshotTree.js"
import {
  type CallOptions,
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_NODES,
  DEFAULT_MAX_SNAPSHOT_ELEMENTS,
  DEFAULT_PAGE_TIMEOUT_MS,
  type DialogAnswer,
  type DialogRecord,
  DomainUnavailableError,
  MAX_MAX_BYTES,
  MAX_MAX_NODES,
  MAX_MAX_SNAPSHOT_ELEMENTS,
  MAX_PAGE_TIMEOUT_MS,
  type Page,
  type PageNode,
  type Target,
  type WaitCondition
} from "./Page.js"
import {
  DialogOpenedError,
  ElementNotFoundError,
  InvalidPageOptionError,
  NavigationError,
  PageClosedError,
  PageTimeoutError,
  PageTooLargeError,
  StaleHandleError
} from "./PageErrors.js"
import { assertNavigableUrl } from "./UrlGuard.js"

/** An element as the in-page query sees it (a DOM `Element`, without depending on the DOM types). */
export interface QueriedElement {
  readonly tagName: string
  readonly textContent: string | null
  readonly attributes: ArrayLike<{ readonly name: string; readonly value: string }>
}

/** A handle to one element, passed back into the page to compare with. */
export interface ElementHandleLike {
  dispose(): Promise<void>
}

/** The bounds `query` applies in the page. */
export interface QueryBound {
  readonly maxNodes: number
  readonly maxBytes: number
}

type ElementState = "visible" | "hidden" | "attached" | "detached"

/** The part of a Playwright `Locator` that `automationPage` uses. */
export interface AutomationLocator {
  first(): AutomationLocator
  elementHandle(options: { readonly timeout: number }): Promise<ElementHandleLike | null>
  count(): Promise<number>
  innerText(): Promise<string>
  click(options: { readonly timeout: number }): Promise<void>
  fill(value: string, options: { readonly timeout: number }): Promise<void>
  hover(options: { readonly timeout: number }): Promise<void>
  press(key: string, options: { readonly timeout: number }): Promise<void>
  selectOption(values: string | Array<string>, options: { readonly timeout: number }): Promise<Array<string>>
  inputValue(options: { readonly timeout: number }): Promise<string>
  waitFor(options: { readonly state: ElementState; readonly timeout: number }): Promise<void>
  evaluate<R>(pageFunction: (element: QueriedElement, maxChars: number) => R, maxChars: number, options: { readonly timeout: number }): Promise<R>
  evaluateAll<R>(pageFunction: (elements: Array<QueriedElement>, bound: QueryBound) => R, bound: QueryBound): Promise<R>
  /** In the page, the handle arrives as the element it stands for. */
  evaluateAll<R>(pageFunction: (elements: Array<QueriedElement>, element: unknown) => R, handle: ElementHandleLike): Promise<R>
}

/** A dialog as Playwright hands it to its `dialog` listeners. */
export interface AutomationDialog {
  type(): string
  message(): string
  accept(promptText?: string): Promise<void>
  dismiss(): Promise<void>
}

/** A frame, compared with the page's main frame to tell a navigation of the page from one in an iframe. */
export interface AutomationFrame {
  url(): string
}

/**
 * The part of a Playwright `Page` that `automationPage` uses; a real `playwright-core` page fits it
 * without this package depending on Playwright.
 */
export interface AutomationPage {
  url(): string
  title(): Promise<string>
  goto(url: string, options: { readonly waitUntil: "domcontentloaded"; readonly timeout?: number }): Promise<unknown>
  locator(selector: string): AutomationLocator
  getByRef(ref: string): AutomationLocator
  getByText(text: string): AutomationLocator
  ariaSnapshot(options: { readonly mode: "ai"; readonly timeout: number }): Promise<string>
  waitForURL(url: string, options: { readonly timeout: number; readonly waitUntil: "commit" }): Promise<void>
  screenshot(options: {
    readonly type: "png"
    readonly fullPage: boolean
    readonly timeout: number
    readonly clip?: { readonly x: number; readonly y: number; readonly width: number; readonly height: number }
  }): Promise<Uint8Array>
  evaluate<R>(pageFunction: () => R): Promise<R>
  mainFrame(): AutomationFrame
  isClosed(): boolean
  on(event: "dialog", listener: (dialog: AutomationDialog) => void): unknown
  on(event: "framenavigated", listener: (frame: AutomationFrame) => void): unknown
}

export interface PageSettings {
  /** Where `screenshot` writes its PNGs; without one, `screenshot` fails with `DomainUnavailableError`. */
  readonly artifactsDirectory?: string | undefined
  /** How every dialog is answered unless a call says otherwise (default: dismissed, failing the call that opened it). */
  readonly dialogs?: DialogAnswer | undefined
}

/** The longest dialog message and title kept: the page writes them, so they are bounded like any page data. */
const MAX_DIALOG_MESSAGE_CHARS = 2000
const MAX_TITLE_CHARS = 1000

const boundedTitle = (title: string): string => (title.length <= MAX_TITLE_CHARS ? title : `${title.slice(0, MAX_TITLE_CHARS)}…`)

/** Page-written text cut to `maxBytes`, with a closing line saying how much was left out. */
const boundedText = (text: string, length: number, maxBytes: number): string => {
  const kept = cutAtCharacter(text, maxBytes)
  return kept.length === length ? kept : `${kept}\n[truncated: ${kept.length} of ${length} characters shown]`
}
/** A full-page screenshot is clipped to this many CSS pixels each way. */
const MAX_SCREENSHOT_WIDTH = 4000
const MAX_SCREENSHOT_HEIGHT = 16_000

const boundedInteger = (option: string, value: number | undefined, fallback: number, max: number): number => {
  if (value === undefined) return fallback
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new InvalidPageOptionError({ option, reason: `must be an integer from 1 to ${max}, got ${String(value)}` })
  }
  return value
}

const timeoutOf = (options: CallOptions | undefined): number =>
  boundedInteger("timeoutMs", options?.timeoutMs, DEFAULT_PAGE_TIMEOUT_MS, MAX_PAGE_TIMEOUT_MS)

const describeTarget = (target: Target): string =>
  typeof target === "string" ? `selector ${JSON.stringify(target)}` : "ref" in target ? `ref ${target.ref}` : `selector ${JSON.stringify(target.selector)}`

/**
 * Runs inside the page, so it must stay self-contained: no imports, no helpers from this module.
 * `innerText` is the rendered text where the element has one (HTML), `textContent` otherwise (SVG).
 */
const describeElements = (
  elements: Array<QueriedElement>,
  bound: QueryBound
): { nodes: Array<PageNode>; total: number; truncated: boolean } => {
  const encoder = new TextEncoder()
  const nodes: Array<PageNode> = []
  let bytes = 2
  let truncated = false
  for (const element of elements) {
    if (nodes.length >= bound.maxNodes) {
      truncated = true
      break
    }
    const rendered: unknown = Reflect.get(element, "innerText")
    const attributes: Record<string, string> = {}
    for (const attribute of Array.from(element.attributes)) attributes[attribute.name] = attribute.value
    const node = { tag: element.tagName.toLowerCase(), text: typeof rendered === "string" ? rendered : (element.textContent ?? ""), attributes }
    const size = encoder.encode(JSON.stringify(node)).length + 1
    if (bytes + size > bound.maxBytes) {
      truncated = true
      break
    }
    bytes += size
    nodes.push(node)
  }
  return { nodes, total: elements.length, truncated }
}

const renderedText = (element: QueriedElement, maxChars: number): { text: string; length: number } => {
  const rendered: unknown = Reflect.get(element, "innerText")
  const full = typeof rendered === "string" ? rendered : (element.textContent ?? "")
  return { text: full.slice(0, maxChars), length: full.length }
}

const elementCount = (): number => {
  const root: unknown = Reflect.get(globalThis, "document")
  const all: unknown = typeof root === "object" && root !== null ? Reflect.apply(Reflect.get(root, "getElementsByTagName"), root, ["*"]) : null
  const length: unknown = typeof all === "object" && all !== null ? Reflect.get(all, "length") : 0
  return typeof length === "number" ? length : 0
}

const documentSize = (): { width: number; height: number } => {
  const root: unknown = Reflect.get(globalThis, "document")
  const element: unknown = typeof root === "object" && root !== null ? Reflect.get(root, "documentElement") : null
  const read = (name: string): number => {
    const value: unknown = typeof element === "object" && element !== null ? Reflect.get(element, name) : 0
    return typeof value === "number" ? value : 0
  }
  return { width: read("scrollWidth"), height: read("scrollHeight") }
}

/** A PNG's pixel size, from its IHDR chunk. */
const pngSize = (png: Uint8Array): { width: number; height: number } => {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength)
  return png.byteLength >= 24 ? { width: view.getUint32(16), height: view.getUint32(20) } : { width: 0, height: 0 }
}

interface CurrentSnapshot {
  readonly id: string
  readonly refs: ReadonlyMap<string, RefEntry>
}

/**
 * A `Page` backed by a real automation page. Actions hit exactly one element or fail typed: a ref
 * is checked against the latest snapshot (taken since the last navigation, still attached, still
 * the role and name it was shown with) before anything is done with it; a selector must match one
 * element. Dialogs are dismissed and fail the call they interrupt.
 */
export const automationPage = (page: AutomationPage, settings: PageSettings = {}): Page => {
  let snapshots = 0
  let current: CurrentSnapshot | null = null
  let invalidated: string | null = null
  const dialogs: Array<DialogRecord> = []
  let reportedDialogs = 0
  /** The answer the call under way asked for, while it runs. */
  let callAnswer: DialogAnswer | undefined
  let screenshots = 0
  const mainFrame = page.mainFrame()

  page.on("dialog", (dialog) => {
    const answer = callAnswer ?? settings.dialogs
    const accept = answer?.accept === true
    dialogs.push({ type: dialog.type(), message: dialog.message().slice(0, MAX_DIALOG_MESSAGE_CHARS), url: page.url(), answer: accept ? "accepted" : "dismissed" })
    ;(accept ? dialog.accept(answer?.promptText) : dialog.dismiss()).catch(() => undefined)
  })
  page.on("framenavigated", (frame) => {
    if (frame !== mainFrame || current === null) return
    invalidated = current.id
    current = null
  })

  /** The first dialog dismissed since the last report fails the call; accepted ones were asked for and fail nothing. */
  const failOnDialog = (action: string): void => {
    const unreported = dialogs.slice(reportedDialogs)
    reportedDialogs = dialogs.length
    const dismissed = unreported.find((dialog) => dialog.answer === "dismissed")
    if (dismissed !== undefined) throw new DialogOpenedError({ type: dismissed.type, text: dismissed.message, action })
  }

  /**
   * Runs one call: a dialog the page opened before or during it, dismissed, fails the call whatever
   * else happened; `answer` is how a dialog is answered while it runs.
   */
  const call = async <A>(action: string, work: () => Promise<A>, answer?: DialogAnswer | undefined): Promise<A> => {
    failOnDialog(action)
    if (page.isClosed()) throw new PageClosedError({ action })
    callAnswer = answer
    try {
      const result = await work()
      failOnDialog(action)
      return result
    } catch (error) {
      failOnDialog(action)
      if (isClosedFailure(error) || page.isClosed()) throw new PageClosedError({ action })
      throw error
    } finally {
      callAnswer = undefined
    }
  }

  const artifactsDirectory = (): string => {
    if (settings.artifactsDirectory === undefined) {
      throw new DomainUnavailableError({ object: "page", missing: "screenshots need an artifacts directory, and the host gave none" })
    }
    return settings.artifactsDirectory
  }

  const stale = (ref: string, reason: string) => new StaleHandleError({ ref, snapshot: current?.id ?? null, reason })

  /** Whether the ref's element still has the role and name the snapshot printed, as Playwright's role engine computes them. */
  const showsAs = async (locator: AutomationLocator, entry: RefEntry & { readonly name: string }): Promise<boolean> => {
    const handle = await locator.elementHandle({ timeout: 1000 })
    if (handle === null) return false
    try {
      // `s` makes the name match exact and case-sensitive.
      return await page
        .locator(`role=${entry.role}[name=${JSON.stringify(entry.name)}s]`)
        .evaluateAll((elements, element) => elements.some((candidate) => candidate === element), handle)
    } finally {
      await handle.dispose()
    }
  }

  /** The locator of a ref that still names what the latest snapshot showed, or a `StaleHandleError`. */
  const refLocator = async (ref: string, snapshot: string | undefined, mustExist: boolean): Promise<AutomationLocator> => {
    if (current === null) {
      throw stale(ref, invalidated === null ? "no snapshot has been taken" : `the page navigated after snapshot ${invalidated}`)
    }
    if (snapshot !== undefined && snapshot !== current.id) throw stale(ref, `it is from snapshot ${snapshot}, the latest is ${current.id}`)
    const entry = current.refs.get(ref)
    if (entry === undefined) throw stale(ref, `it is not in snapshot ${current.id}`)
    const locator = page.getByRef(ref)
    if (!mustExist) return locator
    if ((await locator.count()) === 0) throw stale(ref, `its element was removed after snapshot ${current.id}`)
    if (entry.name !== undefined && entry.role !== "generic") {
      if (!(await showsAs(locator, { ...entry, name: entry.name }))) throw stale(ref, `its element is no longer ${entry.role} ${JSON.stringify(entry.name)} as snapshot ${current.id} showed it`)
    }
    return locator
  }

  /** Runs an action on the one element `target` names, each failure typed. */
  const act = <A>(action: string, target: Target, options: CallOptions | undefined, run: (locator: AutomationLocator, timeout: number) => Promise<A>) =>
    call(action, async () => {
      const timeout = timeoutOf(options)
      if (typeof target !== "string" && "ref" in target) {
        const locator = await refLocator(target.ref, target.snapshot, true)
        try {
          return await run(locator, timeout)
        } catch (error) {
          if (isPlaywrightTimeout(error)) {
            if ((await locator.count()) === 0) throw stale(target.ref, `its element was removed after snapshot ${current?.id ?? "?"}`)
            throw new PageTimeoutError({ action, timeoutMs: timeout })
          }
          throw error
        }
      }
      const selector = typeof target === "string" ? target : target.selector
      const locator = page.locator(selector)
      try {
        return await run(locator, timeout)
      } catch (error) {
        const typed = selectorFailure(error, selector, action)
        if (typed !== null) throw typed
        if (isPlaywrightTimeout(error)) {
          const count = await locator.count().catch(() => 0)
          if (count === 0) throw new ElementNotFoundError({ target: describeTarget(target), timeoutMs: timeout })
          throw new PageTimeoutError({ action, timeoutMs: timeout })
        }
        throw error
      }
    }, options?.dialog)

  const waitLocator = async (condition: WaitCondition): Promise<{ locator: AutomationLocator; selector: string | null }> => {
    if ("ref" in condition) return { locator: await refLocator(condition.ref, undefined, false), selector: null }
    if ("text" in condition) return { locator: page.getByText(condition.text).first(), selector: null }
    if ("selector" in condition) return { locator: page.locator(condition.selector).first(), selector: condition.selector }
    throw new InvalidPageOptionError({ option: "waitFor", reason: "name exactly one of text, url, selector or ref" })
  }

  return {
    url: () => call("url", async () => page.url()),
    title: () => call("title", async () => boundedTitle(await page.title())),
    text: (selector = "body", options) =>
      call("text", async () => {
        const timeout = timeoutOf(options)
        const maxBytes = boundedInteger("maxBytes", options?.maxBytes, DEFAULT_MAX_BYTES, MAX_MAX_BYTES)
        let read: { text: string; length: number }
        try {
          read = await page.locator(selector).first().evaluate(renderedText, maxBytes, { timeout })
        } catch (error) {
          const typed = selectorFailure(error, selector, "text")
          if (typed !== null) throw typed
          if (isPlaywrightTimeout(error)) throw new ElementNotFoundError({ target: describeTarget(selector), timeoutMs: timeout })
          throw error
        }
        return boundedText(read.text, read.length, maxBytes)
      }),
    query: (selector, options) =>
      call("query", async () => {
        const maxNodes = boundedInteger("maxNodes", options?.maxNodes, DEFAULT_MAX_NODES, MAX_MAX_NODES)
        const maxBytes = boundedInteger("maxBytes", options?.maxBytes, DEFAULT_MAX_BYTES, MAX_MAX_BYTES)
        try {
          return await page.locator(selector).evaluateAll(describeElements, { maxNodes, maxBytes })
        } catch (error) {
          throw selectorFailure(error, selector, "query") ?? error
        }
      }),
    snapshot: (options) =>
      call("snapshot", async () => {
        const timeout = timeoutOf(options)
        const maxBytes = boundedInteger("maxBytes", options?.maxBytes, DEFAULT_MAX_BYTES, MAX_MAX_BYTES)
        const limit = boundedInteger("maxElements", options?.maxElements, DEFAULT_MAX_SNAPSHOT_ELEMENTS, MAX_MAX_SNAPSHOT_ELEMENTS)
        const elements = await page.evaluate(elementCount)
        if (elements > limit) throw new PageTooLargeError({ elements, limit })
        let full: string
        try {
          full = await page.ariaSnapshot({ mode: "ai", timeout })
        } catch (error) {
          if (isPlaywrightTimeout(error)) throw new PageTimeoutError({ action: "snapshot", timeoutMs: timeout })
          throw error
        }
        const { text: tree, truncated } = cutAtLine(full, maxBytes)
        snapshots += 1
        const id = `s${snapshots}`
        current = { id, refs: snapshotRefs(tree) }
        invalidated = null
        return { id, url: page.url(), title: boundedTitle(await page.title()), tree, truncated }
      }),
    click: (target, options) => act("click", target, options, (locator, timeout) => locator.click({ timeout })),
    type: (target, text, options) => act("type", target, options, (locator, timeout) => locator.fill(text, { timeout })),
    select: (target, values, options) =>
      act("select", target, options, (locator, timeout) => locator.selectOption(typeof values === "string" ? values : [...values], { timeout })),
    press: (target, key, options) => act("press", target, options, (locator, timeout) => locator.press(key, { timeout })),
    hover: (target, options) => act("hover", target, options, (locator, timeout) => locator.hover({ timeout })),
    value: (target, options) =>
      act("value", target, options, async (locator, timeout) => {
        const value = await locator.inputValue({ timeout })
        return boundedText(value, value.length, DEFAULT_MAX_BYTES)
      }),
    waitFor: (condition) =>
      call("waitFor", async () => {
        const timeout = timeoutOf(condition)
        try {
          if ("url" in condition) {
            await page.waitForURL(condition.url, { timeout, waitUntil: "commit" })
            return
          }
          const { locator, selector } = await waitLocator(condition)
          try {
            await locator.waitFor({ state: condition.state ?? "visible", timeout })
          } catch (error) {
            const typed = selector === null ? null : selectorFailure(error, selector, "waitFor")
            if (typed !== null) throw typed
            throw error
          }
        } catch (error) {
          if (isPlaywrightTimeout(error)) throw new PageTimeoutError({ action: "waitFor", timeoutMs: timeout })
          throw error
        }
      }),
    screenshot: (options) =>
      call("screenshot", async () => {
        const directory = artifactsDirectory()
        const timeout = timeoutOf(options)
        const fullPage = options?.fullPage === true
        let clip: { x: number; y: number; width: number; height: number } | undefined
        let truncated = false
        if (fullPage) {
          const size = await page.evaluate(documentSize)
          truncated = size.width > MAX_SCREENSHOT_WIDTH || size.height > MAX_SCREENSHOT_HEIGHT
          if (truncated) clip = { x: 0, y: 0, width: Math.min(size.width, MAX_SCREENSHOT_WIDTH), height: Math.min(size.height, MAX_SCREENSHOT_HEIGHT) }
        }
        let png: Uint8Array
        try {
          png = await page.screenshot({ type: "png", fullPage, timeout, ...(clip === undefined ? {} : { clip }) })
        } catch (error) {
          if (isPlaywrightTimeout(error)) throw new PageTimeoutError({ action: "screenshot", timeoutMs: timeout })
          throw error
        }
        screenshots += 1
        await mkdir(directory, { recursive: true })
        const path = join(directory, `screenshot-${screenshots}-${randomBytes(4).toString("hex")}.png`)
        const file = await open(path, "wx")
        try {
          await file.writeFile(png)
          await file.sync()
        } finally {
          await file.close()
        }
        return { path, bytes: png.byteLength, ...pngSize(png), truncated }
      }),
    navigate: (url, options) =>
      call("navigate", async () => {
        assertNavigableUrl(url)
        const timeout = timeoutOf(options)
        try {
          await page.goto(url, { waitUntil: "domcontentloaded", timeout })
        } catch (error) {
          if (isPlaywrightTimeout(error)) throw new PageTimeoutError({ action: "navigate", timeoutMs: timeout })
          if (isClosedFailure(error)) throw error
          throw new NavigationError({ url, reason: navigationReason(error) })
        }
      }, options?.dialog),
    dialogs: async () => [...dialogs]
  }
}
