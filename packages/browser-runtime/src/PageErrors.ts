import { Schema } from "effect"

/**
 * A ref that does not name an element of the latest snapshot as the agent saw it: taken from an
 * older snapshot, invalidated by a navigation, or its element was removed or changed since. Acting
 * on it could hit an element the agent never saw, so it is never retried: take a new snapshot.
 */
export class StaleHandleError extends Schema.TaggedError<StaleHandleError>()("StaleHandleError", {
  ref: Schema.String,
  /** The latest snapshot's id, or null when the page has none that is current. */
  snapshot: Schema.NullOr(Schema.String),
  reason: Schema.String
}) {
  override get message(): string {
    return `ref ${this.ref} is stale (${this.reason}): take a new snapshot and pick the element again`
  }
}

/** A selector matched several elements where an action needs exactly one. */
export class AmbiguousSelectorError extends Schema.TaggedError<AmbiguousSelectorError>()("AmbiguousSelectorError", {
  selector: Schema.String,
  count: Schema.Number
}) {
  override get message(): string {
    return `selector ${JSON.stringify(this.selector)} matches ${this.count} elements; an action needs exactly one (use a ref from a snapshot)`
  }
}

/** Nothing matched the target within the call's timeout. */
export class ElementNotFoundError extends Schema.TaggedError<ElementNotFoundError>()("ElementNotFoundError", {
  target: Schema.String,
  timeoutMs: Schema.Number
}) {
  override get message(): string {
    return `no element matches ${this.target} (waited ${this.timeoutMs} ms)`
  }
}

/** A selector the browser cannot parse. */
export class InvalidSelectorError extends Schema.TaggedError<InvalidSelectorError>()("InvalidSelectorError", {
  selector: Schema.String,
  reason: Schema.String
}) {
  override get message(): string {
    return `invalid selector ${JSON.stringify(this.selector)}: ${this.reason}`
  }
}

/** The page could not load an address; `reason` is the browser's network error (`net::ERR_…`). */
export class NavigationError extends Schema.TaggedError<NavigationError>()("NavigationError", {
  url: Schema.String,
  reason: Schema.String
}) {
  override get message(): string {
    return `navigation to ${this.url} failed: ${this.reason}`
  }
}

/** An action or wait did not finish within its timeout. */
export class PageTimeoutError extends Schema.TaggedError<PageTimeoutError>()("PageTimeoutError", {
  action: Schema.String,
  timeoutMs: Schema.Number
}) {
  override get message(): string {
    return `${this.action} did not finish within ${this.timeoutMs} ms`
  }
}

/** The caller's signal aborted the call (code mode's execution ended, say): the browser stopped working on it. */
export class PageAbortedError extends Schema.TaggedError<PageAbortedError>()("PageAbortedError", {
  action: Schema.String
}) {
  override get message(): string {
    return `${this.action} was aborted by its caller`
  }
}

/** The page, its context or the browser connection is gone. */
export class PageClosedError extends Schema.TaggedError<PageClosedError>()("PageClosedError", {
  action: Schema.String
}) {
  override get message(): string {
    return `${this.action} failed: the page is closed`
  }
}

/**
 * The page opened a dialog (alert, confirm, prompt, beforeunload) that no call asked to accept. It
 * was dismissed, and the call that was running fails with it; `text` is what the dialog said.
 */
export class DialogOpenedError extends Schema.TaggedError<DialogOpenedError>()("DialogOpenedError", {
  type: Schema.String,
  text: Schema.String,
  action: Schema.String
}) {
  override get message(): string {
    return `the page opened a ${this.type} dialog during ${this.action} (${JSON.stringify(this.text)}) and it was dismissed; to accept it, repeat the call that opens it with dialog: { accept: true }`
  }
}

/** An option a caller passed that is out of range (a timeout, a byte or node bound). */
export class InvalidPageOptionError extends Schema.TaggedError<InvalidPageOptionError>()("InvalidPageOptionError", {
  option: Schema.String,
  reason: Schema.String
}) {
  override get message(): string {
    return `${this.option}: ${this.reason}`
  }
}

/**
 * The page has more elements than a snapshot is allowed to walk: Playwright's accessibility
 * snapshot grows faster than the page and blocks it meanwhile. Read it with bounded `query` or
 * `text` instead.
 */
export class PageTooLargeError extends Schema.TaggedError<PageTooLargeError>()("PageTooLargeError", {
  elements: Schema.Number,
  limit: Schema.Number
}) {
  override get message(): string {
    return `the page has ${this.elements} elements, more than a snapshot walks (${this.limit}): snapshot a part of it ({ within: { selector } }), or read it with query(selector) or text(selector)`
  }
}
