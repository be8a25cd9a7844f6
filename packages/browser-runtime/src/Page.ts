import { Schema } from "effect"

/** One element a query matched: its tag name (lower case), rendered text and attributes. */
export const PageNode = Schema.Struct({
  tag: Schema.String,
  text: Schema.String,
  attributes: Schema.Record(Schema.String, Schema.String)
})
export type PageNode = typeof PageNode.Type

/**
 * The browser page as code mode sees it: a small, typed surface over one tab. Every method either
 * does what it says or fails; none returns a placeholder value.
 */
export interface Page {
  /** The address of the page now. */
  url(): Promise<string>
  /** The rendered text of the first element matching `selector` (default: the whole body). */
  text(selector?: string): Promise<string>
  /** Every element matching `selector`, in document order. */
  query(selector: string): Promise<ReadonlyArray<PageNode>>
  click(selector: string): Promise<void>
  /** Replaces the value of the input matching `selector` with `text`. */
  type(selector: string, text: string): Promise<void>
  /**
   * Loads `url` and waits for the DOM to be ready. Only http, https and about:blank pass the same
   * guard as `runJob`; anything else fails with `UnsafeUrlError` before the page is touched.
   */
  navigate(url: string): Promise<void>
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
  return { url: fail, text: fail, query: fail, click: fail, type: fail, navigate: fail }
}
