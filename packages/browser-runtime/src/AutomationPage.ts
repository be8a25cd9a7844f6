import { randomBytes } from "node:crypto"
import { mkdir, open } from "node:fs/promises"
import { join } from "node:path"
import { isClosedFailure, isPlaywrightTimeout, navigationReason, selectorFailure } from "./internal/PageFailure.js"
import { cutAtCharacter, cutAtLine, identityChange, type RefEntry, refIdentity, snapshotRefs, treeLineRole } from "./internal/SnapshotTree.js"
import {
  type ActionReceipt,
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
  type SelectReceipt,
  type Target,
  type WaitCondition
} from "./Page.js"
import {
  AmbiguousSelectorError,
  DialogOpenedError,
  ElementNotFoundError,
  InvalidPageOptionError,
  NavigationError,
  PageAbortedError,
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

/** A Playwright operation's bound: its timeout and, when the caller gave one, the signal that ends it. */
interface Bound {
  readonly timeout: number
  readonly signal?: AbortSignal
}

/** The part of a Playwright `Locator` that `automationPage` uses. */
export interface AutomationLocator {
  first(): AutomationLocator
  locator(selector: string): AutomationLocator
  elementHandle(options: Bound): Promise<ElementHandleLike | null>
  count(): Promise<number>
  innerText(): Promise<string>
  click(options: Bound): Promise<void>
  fill(value: string, options: Bound): Promise<void>
  hover(options: Bound): Promise<void>
  press(key: string, options: Bound): Promise<void>
  selectOption(values: string | Array<string>, options: Bound): Promise<Array<string>>
  inputValue(options: Bound): Promise<string>
  waitFor(options: Bound & { readonly state: ElementState }): Promise<void>
  /** The accessibility tree of the element and what it holds (with refs in `ai` mode). */
  ariaSnapshot(options: Bound & { readonly mode: "ai" | "default"; readonly depth?: number }): Promise<string>
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
  goto(url: string, options: Partial<Bound> & { readonly waitUntil: "domcontentloaded" }): Promise<unknown>
  locator(selector: string): AutomationLocator
  getByRef(ref: string): AutomationLocator
  getByText(text: string): AutomationLocator
  ariaSnapshot(options: Bound & { readonly mode: "ai" }): Promise<string>
  waitForURL(url: string, options: Bound & { readonly waitUntil: "commit" }): Promise<void>
  screenshot(
    options: Bound & {
      readonly type: "png"
      readonly fullPage: boolean
      readonly clip?: { readonly x: number; readonly y: number; readonly width: number; readonly height: number }
    }
  ): Promise<Uint8Array>
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

/** The Playwright bound of a call: its timeout and the caller's signal, if any. */
const boundOf = (options: CallOptions | undefined): Bound =>
  options?.signal === undefined ? { timeout: timeoutOf(options) } : { timeout: timeoutOf(options), signal: options.signal }

const isAbort = (error: unknown): boolean => error instanceof Error && error.name === "AbortError"

/** `work`, or an `AbortError` as soon as `signal` aborts: a step Playwright cannot be told to stop (an evaluation) is left to its own time bound. */
const untilAborted = <A>(work: Promise<A>, signal: AbortSignal): Promise<A> =>
  new Promise<A>((resolve, reject) => {
    const onAbort = () => reject(new DOMException("the call was aborted", "AbortError"))
    signal.addEventListener("abort", onAbort, { once: true })
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort))
  })

/** Whether the call's signal has aborted (read anew each time: it can abort while the call runs). */
const isAborted = (options: CallOptions | undefined): boolean => options?.signal?.aborted === true

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

/** An action that answers only its receipt. */
const receiptOf = async (acting: Promise<{ readonly receipt: ActionReceipt }>): Promise<ActionReceipt> => (await acting).receipt

/** Runs inside the page: how many elements an element holds, itself included. */
const elementsWithin = (element: QueriedElement, _unused: number): number => {
  const all: unknown = Reflect.apply(Reflect.get(element, "getElementsByTagName"), element, ["*"])
  const length: unknown = typeof all === "object" && all !== null ? Reflect.get(all, "length") : 0
  return (typeof length === "number" ? length : 0) + 1
}

/** Runs inside the page: how many elements match, and where among them the element is. */
const positionAmong = (elements: Array<QueriedElement>, element: unknown): { count: number; index: number } => ({
  count: elements.length,
  index: elements.findIndex((candidate) => candidate === element)
})

/** A PNG's pixel size, from its IHDR chunk. */
const pngSize = (png: Uint8Array): { width: number; height: number } => {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength)
  return png.byteLength >= 24 ? { width: view.getUint32(16), height: view.getUint32(20) } : { width: 0, height: 0 }
}

interface CurrentSnapshot {
  readonly id: string
  readonly refs: ReadonlyMap<string, RefEntry>
  readonly tree: string
  /** The element the snapshot was taken within, or undefined for the whole page. */
  readonly scope: AutomationLocator | undefined
  /** The selector that scope was given by, when it was given by one. */
  readonly scopeSelector: string | undefined
}

/** Where a receipt's locator is looked for: the part of the page a snapshot covers, named by its selector. */
interface LocatorRoot {
  readonly locator: AutomationLocator
  readonly selector: string
}

/**
 * A `Page` backed by a real automation page. Actions hit exactly one element or fail typed: a ref
 * is checked against the latest snapshot before anything is done with it — taken since the last
 * navigation, its element still attached and, in a snapshot of the same part of the page taken
 * now, still the role and name it was shown with, in the same place, and inside a repeated item (a
 * list item, a row …) whose content is what it was, so a list re-rendered in place never hands a
 * ref to another row; a selector must match one element. Every action answers what it acted on.
 * Dialogs are dismissed and fail the call they interrupt, unless the call or the page says to accept.
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
  const call = async <A>(action: string, work: () => Promise<A>, options?: CallOptions | undefined): Promise<A> => {
    failOnDialog(action)
    if (page.isClosed()) throw new PageClosedError({ action })
    if (isAborted(options)) throw new PageAbortedError({ action })
    callAnswer = options?.dialog
    try {
      const result = options?.signal === undefined ? await work() : await untilAborted(work(), options.signal)
      failOnDialog(action)
      return result
    } catch (error) {
      failOnDialog(action)
      if (isClosedFailure(error) || page.isClosed()) throw new PageClosedError({ action })
      if (isAbort(error) || isAborted(options)) throw new PageAbortedError({ action })
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

  /** The accessibility tree, with refs, of the part of the page a snapshot covers (all of it without a scope). */
  const scopeTree = (scope: AutomationLocator | undefined, bound: Bound): Promise<string> =>
    scope === undefined ? page.ariaSnapshot({ mode: "ai", ...bound }) : scope.ariaSnapshot({ mode: "ai", ...bound })

  /**
   * The locator of a ref that still names what the latest snapshot showed, with its role and name,
   * or a `StaleHandleError` saying what changed. With `mustExist`, the part of the page the snapshot
   * covers is walked again and the element's identity there compared with the one shown.
   */
  const refLocator = async (
    ref: string,
    snapshot: string | undefined,
    mustExist: boolean,
    bound: Bound
  ): Promise<{ readonly locator: AutomationLocator; readonly role: string; readonly name: string }> => {
    if (current === null) {
      throw stale(ref, invalidated === null ? "no snapshot has been taken" : `the page navigated after snapshot ${invalidated}`)
    }
    if (snapshot !== undefined && snapshot !== current.id) throw stale(ref, `it is from snapshot ${snapshot}, the latest is ${current.id}`)
    const entry = current.refs.get(ref)
    if (entry === undefined) throw stale(ref, `it is not in snapshot ${current.id}`)
    const shownAs = { role: entry.role, name: entry.name ?? "" }
    const locator = page.getByRef(ref)
    if (!mustExist) return { locator, ...shownAs }
    const { id, tree, scope } = current
    if ((await locator.count()) === 0) throw stale(ref, `its element was removed after snapshot ${id}`)
    const shown = refIdentity(tree, ref)
    let now: string
    try {
      now = await scopeTree(scope, bound)
    } catch (error) {
      if (isPlaywrightTimeout(error) || isAbort(error) || isClosedFailure(error)) throw error
      throw stale(ref, `the part of the page snapshot ${id} was taken within is gone`)
    }
    const found = refIdentity(now, ref)
    if (shown === undefined || found === undefined) throw stale(ref, `its element is no longer ${entry.role} ${JSON.stringify(entry.name ?? "")} as snapshot ${id} showed it`)
    const change = identityChange(shown, found)
    if (change !== undefined) throw stale(ref, `its element ${change}${change.startsWith("is no longer") ? ` as snapshot ${id} showed it` : ` since snapshot ${id}`}`)
    return { locator, ...shownAs }
  }

  /**
   * A selector that finds the element now: its role and exact name, with its position among the
   * elements that share them, looked for within `root` when the snapshot covered only a part of the
   * page. The role engine walks every element it looks through, so on a page larger than a whole
   * snapshot may be, without a root, it is not asked: `fallback` is the answer then, and when the
   * role engine does not find the element by its role and name.
   */
  const shortLocator = async (locator: AutomationLocator, role: string, name: string, fallback: string, bound: Bound, root: LocatorRoot | undefined): Promise<string> => {
    const byRole = name === "" ? `role=${role}` : `role=${role}[name=${JSON.stringify(name)}s]`
    if (root === undefined && (await page.evaluate(elementCount)) > DEFAULT_MAX_SNAPSHOT_ELEMENTS) return fallback
    const handle = await locator.elementHandle(bound).catch(() => null)
    if (handle === null) return fallback
    try {
      const candidates = root === undefined ? page.locator(byRole) : root.locator.locator(byRole)
      const { count, index } = await candidates.evaluateAll(positionAmong, handle)
      if (index === -1) return fallback
      const found = count === 1 ? byRole : `${byRole} >> nth=${index}`
      return root === undefined ? found : `${root.selector} >> ${found}`
    } catch {
      return fallback
    } finally {
      await handle.dispose()
    }
  }

  /**
   * The role and name of the one element a selector names, as the accessibility tree gives them.
   * Reading them replaces the tree Playwright resolves refs against, so the latest snapshot's part
   * of the page is walked again after, which gives every element it showed its ref back.
   */
  const selectorRole = async (locator: AutomationLocator, bound: Bound): Promise<{ readonly role: string; readonly name: string }> => {
    const tree = await locator.ariaSnapshot({ mode: "default", depth: 1, ...bound })
    if (current !== null) await scopeTree(current.scope, bound).catch(() => undefined)
    return treeLineRole(tree.split("\n")[0] ?? "")
  }

  /**
   * Runs an action on the one element `target` names, each failure typed, and answers what it acted
   * on: the element's role, name and a short locator (read before the action, which may navigate)
   * and the address after it.
   */
  const act = <A>(action: string, target: Target, options: CallOptions | undefined, run: (locator: AutomationLocator, bound: Bound) => Promise<A>) =>
    call(
      action,
      async (): Promise<{ readonly receipt: ActionReceipt; readonly answer: A }> => {
        const bound = boundOf(options)
        if (typeof target !== "string" && "ref" in target) {
          const { locator, role, name } = await refLocator(target.ref, target.snapshot, true, bound)
          const root = current?.scope !== undefined && current.scopeSelector !== undefined ? { locator: current.scope, selector: current.scopeSelector } : undefined
          const found = await shortLocator(locator, role, name, `aria-ref=${target.ref}`, bound, root)
          try {
            const answer = await run(locator, bound)
            return { receipt: { role, name, locator: found, url: page.url() }, answer }
          } catch (error) {
            if (isPlaywrightTimeout(error)) {
              if ((await locator.count()) === 0) throw stale(target.ref, `its element was removed after snapshot ${current?.id ?? "?"}`)
              throw new PageTimeoutError({ action, timeoutMs: bound.timeout })
            }
            throw error
          }
        }
        const selector = typeof target === "string" ? target : target.selector
        const locator = page.locator(selector)
        try {
          const { role, name } = await selectorRole(locator, bound)
          const found = await shortLocator(locator, role, name, selector, bound, undefined)
          const answer = await run(locator, bound)
          return { receipt: { role, name, locator: found, url: page.url() }, answer }
        } catch (error) {
          const typed = selectorFailure(error, selector, action)
          if (typed !== null) throw typed
          if (isPlaywrightTimeout(error)) {
            const count = await locator.count().catch(() => 0)
            if (count === 0) throw new ElementNotFoundError({ target: describeTarget(target), timeoutMs: bound.timeout })
            throw new PageTimeoutError({ action, timeoutMs: bound.timeout })
          }
          throw error
        }
      },
      options
    )

  const waitLocator = async (condition: WaitCondition, bound: Bound): Promise<{ locator: AutomationLocator; selector: string | null }> => {
    if ("ref" in condition) return { locator: (await refLocator(condition.ref, undefined, false, bound)).locator, selector: null }
    if ("text" in condition) return { locator: page.getByText(condition.text).first(), selector: null }
    if ("selector" in condition) return { locator: page.locator(condition.selector).first(), selector: condition.selector }
    throw new InvalidPageOptionError({ option: "waitFor", reason: "name exactly one of text, url, selector or ref" })
  }

  /** The element a snapshot is taken within: a ref of the latest snapshot, or a selector matching exactly one element. */
  const scopeOf = async (within: Target, bound: Bound): Promise<AutomationLocator> => {
    if (typeof within !== "string" && "ref" in within) return (await refLocator(within.ref, within.snapshot, true, bound)).locator
    const selector = typeof within === "string" ? within : within.selector
    const locator = page.locator(selector)
    let count: number
    try {
      count = await locator.count()
    } catch (error) {
      throw selectorFailure(error, selector, "snapshot") ?? error
    }
    if (count === 0) throw new ElementNotFoundError({ target: describeTarget(within), timeoutMs: 0 })
    if (count > 1) throw new AmbiguousSelectorError({ selector, count })
    return locator
  }

  return {
    url: () => call("url", async () => page.url()),
    title: () => call("title", async () => boundedTitle(await page.title())),
    text: (selector = "body", options) =>
      call(
        "text",
        async () => {
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
        },
        options
      ),
    query: (selector, options) =>
      call(
        "query",
        async () => {
          const maxNodes = boundedInteger("maxNodes", options?.maxNodes, DEFAULT_MAX_NODES, MAX_MAX_NODES)
          const maxBytes = boundedInteger("maxBytes", options?.maxBytes, DEFAULT_MAX_BYTES, MAX_MAX_BYTES)
          try {
            return await page.locator(selector).evaluateAll(describeElements, { maxNodes, maxBytes })
          } catch (error) {
            throw selectorFailure(error, selector, "query") ?? error
          }
        },
        options
      ),
    snapshot: (options) =>
      call(
        "snapshot",
        async () => {
          const bound = boundOf(options)
          const maxBytes = boundedInteger("maxBytes", options?.maxBytes, DEFAULT_MAX_BYTES, MAX_MAX_BYTES)
          const limit = boundedInteger("maxElements", options?.maxElements, DEFAULT_MAX_SNAPSHOT_ELEMENTS, MAX_MAX_SNAPSHOT_ELEMENTS)
          const scope = options?.within === undefined ? undefined : await scopeOf(options.within, bound)
          const elements = scope === undefined ? await page.evaluate(elementCount) : await scope.evaluate(elementsWithin, 0, bound)
          if (elements > limit) throw new PageTooLargeError({ elements, limit })
          let full: string
          try {
            full = await scopeTree(scope, bound)
          } catch (error) {
            if (isPlaywrightTimeout(error)) throw new PageTimeoutError({ action: "snapshot", timeoutMs: bound.timeout })
            throw error
          }
          const { text: tree, truncated } = cutAtLine(full, maxBytes)
          snapshots += 1
          const id = `s${snapshots}`
          const within = options?.within
          const scopeSelector = within === undefined || (typeof within !== "string" && "ref" in within) ? undefined : typeof within === "string" ? within : within.selector
          current = { id, refs: snapshotRefs(tree), tree, scope, scopeSelector }
          invalidated = null
          return { id, url: page.url(), title: boundedTitle(await page.title()), tree, truncated, ...(within === undefined ? {} : { within: describeTarget(within) }) }
        },
        options
      ),
    click: (target, options) => receiptOf(act("click", target, options, (locator, bound) => locator.click(bound))),
    type: (target, text, options) => receiptOf(act("type", target, options, (locator, bound) => locator.fill(text, bound))),
    select: async (target, values, options): Promise<SelectReceipt> => {
      const { receipt, answer } = await act("select", target, options, (locator, bound) =>
        locator.selectOption(typeof values === "string" ? values : [...values], bound)
      )
      return { ...receipt, selected: answer }
    },
    press: (target, key, options) => receiptOf(act("press", target, options, (locator, bound) => locator.press(key, bound))),
    hover: (target, options) => receiptOf(act("hover", target, options, (locator, bound) => locator.hover(bound))),
    value: async (target, options) => {
      const { answer } = await act("value", target, options, async (locator, bound) => {
        const value = await locator.inputValue(bound)
        return boundedText(value, value.length, DEFAULT_MAX_BYTES)
      })
      return answer
    },
    waitFor: (condition) =>
      call(
        "waitFor",
        async () => {
          const bound = boundOf(condition)
          try {
            if ("url" in condition) {
              await page.waitForURL(condition.url, { ...bound, waitUntil: "commit" })
              return
            }
            const { locator, selector } = await waitLocator(condition, bound)
            try {
              await locator.waitFor({ ...bound, state: condition.state ?? "visible" })
            } catch (error) {
              const typed = selector === null ? null : selectorFailure(error, selector, "waitFor")
              if (typed !== null) throw typed
              throw error
            }
          } catch (error) {
            if (isPlaywrightTimeout(error)) throw new PageTimeoutError({ action: "waitFor", timeoutMs: bound.timeout })
            throw error
          }
        },
        condition
      ),
    screenshot: (options) =>
      call(
        "screenshot",
        async () => {
          const directory = artifactsDirectory()
          const bound = boundOf(options)
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
            png = await page.screenshot({ type: "png", fullPage, ...bound, ...(clip === undefined ? {} : { clip }) })
          } catch (error) {
            if (isPlaywrightTimeout(error)) throw new PageTimeoutError({ action: "screenshot", timeoutMs: bound.timeout })
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
        },
        options
      ),
    navigate: (url, options) =>
      call(
        "navigate",
        async () => {
          assertNavigableUrl(url)
          const bound = boundOf(options)
          try {
            await page.goto(url, { ...bound, waitUntil: "domcontentloaded" })
          } catch (error) {
            if (isPlaywrightTimeout(error)) throw new PageTimeoutError({ action: "navigate", timeoutMs: bound.timeout })
            if (isClosedFailure(error) || isAbort(error)) throw error
            throw new NavigationError({ url, reason: navigationReason(error) })
          }
        },
        options
      ),
    dialogs: async () => [...dialogs]
  }
}
