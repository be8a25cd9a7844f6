import type { Page } from "./Page.js"

/** The part of a Playwright `Locator` that `automationPage` uses. */
export interface AutomationLocator {
  first(): AutomationLocator
  innerText(): Promise<string>
  allInnerTexts(): Promise<Array<string>>
  click(): Promise<void>
  fill(value: string): Promise<void>
}

/**
 * The part of a Playwright `Page` that `automationPage` uses; a real `playwright-core` page fits it
 * without this package depending on Playwright.
 */
export interface AutomationPage {
  url(): string
  goto(url: string, options: { waitUntil: "domcontentloaded" }): Promise<unknown>
  locator(selector: string): AutomationLocator
}

/** The address schemes a page may be sent to; anything else (file:, javascript:, data:) is refused. */
const isNavigable = (url: string): boolean => {
  if (url === "about:blank") return true
  try {
    const { protocol } = new URL(url)
    return protocol === "http:" || protocol === "https:"
  } catch {
    return false
  }
}

/** A `Page` backed by a real automation page. Click and type act on exactly one element or fail. */
export const automationPage = (page: AutomationPage): Page => ({
  url: async () => page.url(),
  text: (selector = "body") => page.locator(selector).first().innerText(),
  query: (selector) => page.locator(selector).allInnerTexts(),
  click: (selector) => page.locator(selector).click(),
  type: (selector, text) => page.locator(selector).fill(text),
  navigate: async (url) => {
    if (!isNavigable(url)) throw new TypeError(`refusing to navigate to ${JSON.stringify(url)}: only http, https and about:blank`)
    await page.goto(url, { waitUntil: "domcontentloaded" })
  }
})
