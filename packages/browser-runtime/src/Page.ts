import { Schema } from "effect"

/** One element a query matched: its tag name (lower case), rendered text and attributes. */
export const PageNode = Schema.Struct({
  tag: Schema.String,
  text: Schema.String,
  attributes: Schema.Record(Schema.String, Schema.String)
})
export type PageNode = typeof PageNode.Type

/** What `query` answers: the first matches in document order, how many there were, and whether some were left out. */
export const QueryResult = Schema.Struct({
  nodes: Schema.Array(PageNode),
  total: Schema.Number,
  truncated: Schema.Boolean
})
export type QueryResult = typeof QueryResult.Type

/**
 * The accessibility tree of the page as YAML-like text, one line per node; every element an agent
 * can act on carries `[ref=eN]`. Refs are valid for this snapshot only (see `StaleHandleError`).
 */
export const PageSnapshot = Schema.Struct({
  id: Schema.String,
  url: Schema.String,
  title: Schema.String,
  tree: Schema.String,
  /** The tree was cut at a line boundary to stay within `maxBytes`; refs past the cut are not valid. */
  truncated: Schema.Boolean,
  /** The part of the page the snapshot was taken within (`SnapshotOptions.within`), when not the whole page. */
  within: Schema.optional(Schema.String)
})
export type PageSnapshot = typeof PageSnapshot.Type

/**
 * What an action acted on: the element's role and accessible name, a short selector that finds it
 * now (`role=button[name="Approve"s] >> nth=1`, usable as `{ selector }`), and the page's address
 * after the action — so a caller can see that it hit what it meant to.
 */
export const ActionReceipt = Schema.Struct({
  role: Schema.String,
  name: Schema.String,
  locator: Schema.String,
  url: Schema.String
})
export type ActionReceipt = typeof ActionReceipt.Type

/** What `select` answers: the receipt and the option values now selected. */
export const SelectReceipt = Schema.Struct({ ...ActionReceipt.fields, selected: Schema.Array(Schema.String) })
export type SelectReceipt = typeof SelectReceipt.Type

/** A PNG written under the run's artifacts directory. */
export const Screenshot = Schema.Struct({
  path: Schema.String,
  bytes: Schema.Number,
  width: Schema.Number,
  height: Schema.Number,
  /** A full-page capture was clipped to the size bound. */
  truncated: Schema.Boolean
})
export type Screenshot = typeof Screenshot.Type

/** How to answer a dialog: accept it (with the text a prompt gets) or dismiss it. */
export const DialogAnswer = Schema.Struct({
  accept: Schema.Boolean.annotate({ description: "true accepts (OK), false dismisses (Cancel)" }),
  promptText: Schema.optional(Schema.String.annotate({ description: "the text a prompt dialog is answered with, when accepted" }))
})
export type DialogAnswer = typeof DialogAnswer.Type

/** A dialog the page opened, and how it was answered. */
export const DialogRecord = Schema.Struct({
  type: Schema.String,
  message: Schema.String,
  url: Schema.String,
  answer: Schema.Literals(["accepted", "dismissed"])
})
export type DialogRecord = typeof DialogRecord.Type

/**
 * The element an action is for: a ref from the latest snapshot (optionally naming that snapshot, so
 * a ref from another one is refused) or a selector that must match exactly one element.
 */
export type Target = string | { readonly ref: string; readonly snapshot?: string | undefined } | { readonly selector: string }

/** Every call's own time bound; default {@link DEFAULT_PAGE_TIMEOUT_MS}. */
export interface CallOptions {
  readonly timeoutMs?: number | undefined
  /**
   * How to answer a dialog the page opens during this call. Without it, the page's own setting
   * applies, and by default a dialog is dismissed and fails the call that opened it.
   */
  readonly dialog?: DialogAnswer | undefined
  /** Ends the call when it aborts (`PageAbortedError`): the browser stops waiting or acting for it. */
  readonly signal?: AbortSignal | undefined
}

export interface TextOptions extends CallOptions {
  /** Default 64 KiB. */
  readonly maxBytes?: number | undefined
}

export interface QueryOptions extends CallOptions {
  /** Default 200. */
  readonly maxNodes?: number | undefined
  /** Default 64 KiB. */
  readonly maxBytes?: number | undefined
}

export interface SnapshotOptions extends CallOptions {
  /** Default 64 KiB. */
  readonly maxBytes?: number | undefined
  /** A page with more elements fails with `PageTooLargeError` before it is walked; default 5000, at most 20000. */
  readonly maxElements?: number | undefined
  /**
   * Only the part of the page inside one element: a ref of the latest snapshot, or a selector
   * matching exactly one element (`main`, `role=table[name="Orders"]`). Its elements are what
   * `maxElements` counts, so a page too large to snapshot whole can be read a part at a time; the
   * refs it shows are the only ones valid until the next snapshot.
   */
  readonly within?: Target | undefined
}

export interface ScreenshotOptions extends CallOptions {
  /** The whole page instead of the viewport, clipped to a bounded size. */
  readonly fullPage?: boolean | undefined
}

/** An observable to wait for; exactly one of text, url, selector or ref. */
export type WaitCondition = (
  | { readonly text: string }
  | { readonly url: string }
  | { readonly selector: string }
  | { readonly ref: string }
) & {
  /** For text, selector and ref: `visible` (default), `hidden`, `attached` or `detached`. */
  readonly state?: "visible" | "hidden" | "attached" | "detached" | undefined
  readonly timeoutMs?: number | undefined
  /** Ends the wait when it aborts (`PageAbortedError`). */
  readonly signal?: AbortSignal | undefined
}

export const DEFAULT_PAGE_TIMEOUT_MS = 5000
export const MAX_PAGE_TIMEOUT_MS = 120_000
export const DEFAULT_MAX_BYTES = 64 * 1024
export const MAX_MAX_BYTES = 1024 * 1024
export const DEFAULT_MAX_NODES = 200
export const MAX_MAX_NODES = 5000
export const DEFAULT_MAX_SNAPSHOT_ELEMENTS = 5000
export const MAX_MAX_SNAPSHOT_ELEMENTS = 20_000

/**
 * The browser page as code mode sees it: a typed surface over one tab for the snapshot-then-act
 * loop. Every method either does what it says or fails with a typed error (`StaleHandleError`,
 * `AmbiguousSelectorError`, `ElementNotFoundError`, `InvalidSelectorError`, `NavigationError`,
 * `PageTimeoutError`, `PageClosedError`, `DialogOpenedError`, `PageTooLargeError`, `UnsafeUrlError`,
 * `PageAbortedError`); none returns a
 * placeholder value, and everything the page yields is data.
 */
export interface Page {
  /** The address of the page now. */
  url(): Promise<string>
  /** The page's title, cut to 1,000 characters. */
  title(): Promise<string>
  /**
   * The rendered text of the first element matching `selector` (default: the whole body), cut to
   * `maxBytes` with a closing `[truncated: …]` line saying how much was left out.
   */
  text(selector?: string, options?: TextOptions): Promise<string>
  /** The first `maxNodes` elements matching `selector`, in document order, within `maxBytes`. */
  query(selector: string, options?: QueryOptions): Promise<QueryResult>
  /** The accessibility tree with a ref per element; the refs of any earlier snapshot stop being valid. */
  snapshot(options?: SnapshotOptions): Promise<PageSnapshot>
  /** Clicks one element; answers what it clicked (`ActionReceipt`), as every action does. */
  click(target: Target, options?: CallOptions): Promise<ActionReceipt>
  /** Replaces the value of the input `target` with `text`. */
  type(target: Target, text: string, options?: CallOptions): Promise<ActionReceipt>
  /** Selects options of a `<select>` by value or label; answers the receipt and the values now selected. */
  select(target: Target, values: string | ReadonlyArray<string>, options?: CallOptions): Promise<SelectReceipt>
  /** Presses a key (`Enter`, `Control+A`) with `target` focused. */
  press(target: Target, key: string, options?: CallOptions): Promise<ActionReceipt>
  hover(target: Target, options?: CallOptions): Promise<ActionReceipt>
  /** The current value of an input, textarea or select, cut to 64 KiB like `text`. */
  value(target: Target, options?: CallOptions): Promise<string>
  /** Resolves when the observable holds; `PageTimeoutError` when it does not within the timeout. */
  waitFor(condition: WaitCondition): Promise<void>
  screenshot(options?: ScreenshotOptions): Promise<Screenshot>
  /**
   * Loads `url` and waits for the DOM to be ready. Only http, https and about:blank pass the same
   * guard as `runJob`; anything else fails with `UnsafeUrlError` before the page is touched.
   */
  navigate(url: string, options?: CallOptions): Promise<void>
  /** Every dialog the page opened so far, and how each was answered (a dismissed one failed the call it interrupted). */
  dialogs(): Promise<ReadonlyArray<DialogRecord>>
}

/** A domain object the host could not provide: names the object and the capability it lacks. */
export class DomainUnavailableError extends Schema.TaggedError<DomainUnavailableError>()("DomainUnavailableError", {
  object: Schema.String,
  missing: Schema.String
}) {
  override get message(): string {
    return `${this.object} is unavailable: ${this.missing}`
  }
}

/** A page whose every method fails with `DomainUnavailableError` naming what is missing. */
export const unavailablePage = (missing: string): Page => {
  const fail = (): Promise<never> => Promise.reject(new DomainUnavailableError({ object: "page", missing }))
  return {
    url: fail,
    title: fail,
    text: fail,
    query: fail,
    snapshot: fail,
    click: fail,
    type: fail,
    select: fail,
    press: fail,
    hover: fail,
    value: fail,
    waitFor: fail,
    screenshot: fail,
    navigate: fail,
    dialogs: fail
  }
}
