import { AmbiguousSelectorError, InvalidSelectorError, PageClosedError } from "../PageErrors.js"

const firstLine = (error: unknown): string => (error instanceof Error ? (error.message.split("\n")[0] ?? error.name) : String(error))

/** Playwright's own timeout, told apart by its error's name. */
export const isPlaywrightTimeout = (error: unknown): boolean => error instanceof Error && error.name === "TimeoutError"

export const isClosedFailure = (error: unknown): boolean =>
  /Target page, context or browser has been closed|Target closed|Browser has been closed|browser has disconnected/i.test(firstLine(error))

const STRICT = /strict mode violation: .* resolved to (\d+) elements/
const SELECTOR_SYNTAX = /while parsing (?:css )?selector|Unknown engine|Unexpected token|is not a valid selector|Invalid selector|Unsupported token/i

/**
 * The typed error a selector failure stands for, or null when it is none of them: an ambiguous
 * match, a selector the browser cannot parse, a closed page.
 */
export const selectorFailure = (error: unknown, selector: string, action: string) => {
  const line = firstLine(error)
  const strict = STRICT.exec(line)
  if (strict !== null) return new AmbiguousSelectorError({ selector, count: Number(strict[1]) })
  if (SELECTOR_SYNTAX.test(line)) return new InvalidSelectorError({ selector, reason: line.replace(/^[\w.]+: (?:Error: )?/, "") })
  if (isClosedFailure(error)) return new PageClosedError({ action })
  return null
}

/** The browser's network error in a failed navigation (`net::ERR_NAME_NOT_RESOLVED`), else the first line. */
export const navigationReason = (error: unknown): string => {
  const line = firstLine(error)
  const net = /net::ERR_[A-Z_]+/.exec(line)
  if (net !== null) return net[0]
  if (/Download is starting/i.test(line)) return "the address started a download instead of loading a page"
  return line.replace(/^[\w.]+: /, "")
}
