import { Schema } from "effect"

/** An address the runtime refuses to load: only http, https and about:blank are navigable. */
export class UnsafeUrlError extends Schema.TaggedError<UnsafeUrlError>()("UnsafeUrlError", {
  url: Schema.String
}) {
  override get message(): string {
    return `refusing to navigate to ${JSON.stringify(this.url)}: only http, https and about:blank`
  }
}

/** Whether a page may be sent to `url`; file:, javascript:, data:, chrome: and the like may not. */
export const isNavigableUrl = (url: string): boolean => {
  if (url === "about:blank") return true
  try {
    const { protocol } = new URL(url)
    return protocol === "http:" || protocol === "https:"
  } catch {
    return false
  }
}

/** Throws `UnsafeUrlError` unless {@link isNavigableUrl}. */
export const assertNavigableUrl = (url: string): void => {
  if (!isNavigableUrl(url)) throw new UnsafeUrlError({ url })
}
