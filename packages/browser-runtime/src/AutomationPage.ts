import type { Page, PageNode } from "./Page.js"
import { assertNavigableUrl } from "./UrlGuard.js"

/** An element as the in-page query sees it (a DOM `Element`, without depending on the DOM types). */
export interface QueriedElement {
  readonly tagName: string
  readonly textContent: string | null
  readonly attributes: ArrayLike<{ readonly name: string; readonly value: string }>
}

/** The part of a Playwright `Locator` that `automationPage` uses. */
export interface AutomationLocator {
  first(): AutomationLocator
  innerText(): Promise<string>
  click(): Promise<void>
  fill(value: string): Promise<void>
  evaluateAll<R>(pageFunction: (elements: Array<QueriedElement>) => R): Promise<R>
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

/**
 * Runs inside the page, so it must stay self-contained: no imports, no helpers from this module.
 * `innerText` is the rendered text where the element has one (HTML), `textContent` otherwise (SVG).
 */
const describeElements = (elements: Array<QueriedElement>): Array<PageNode> =>
  elements.map((element) => {
    const rendered: unknown = Reflect.get(element, "innerText")
    const attributes: Record<string, string> = {}
    for (const attribute of Array.from(element.attributes)) attributes[attribute.name] = attribute.value
    return {
      tag: element.tagName.toLowerCase(),
      text: typeof rendered === "string" ? rendered : (element.textContent ?? ""),
      attributes
    }
  })

/** A `Page` backed by a real automation page. Click and type act on exactly one element or fail. */
export const automationPage = (page: AutomationPage): Page => ({
  url: async () => page.url(),
  text: (selector = "body") => page.locator(selector).first().innerText(),
  query: (selector) => page.locator(selector).evaluateAll(describeElements),
  click: (selector) => page.locator(selector).click(),
  type: (selector, text) => page.locator(selector).fill(text),
  navigate: async (url) => {
    assertNavigableUrl(url)
    await page.goto(url, { waitUntil: "domcontentloaded" })
  }
})
