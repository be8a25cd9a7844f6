import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import {
  type AutomationLocator,
  type AutomationPage,
  automationPage,
  DomainUnavailableError,
  type Page,
  pageTools,
  UnsafeUrlError,
  unavailablePage
} from "../src/index.js"

/**
 * A hand-written page over a fixed document: selectors map to element texts, and the strictness of
 * Playwright locators (one element for click and fill) is kept, so the adapter is tested against
 * the behaviour it relies on.
 */
const fakePage = (elements: Record<string, ReadonlyArray<string>>) => {
  const actions: Array<string> = []
  let address = "about:blank"
  const locator = (selector: string, onlyFirst = false): AutomationLocator => {
    const matches = (onlyFirst ? (elements[selector] ?? []).slice(0, 1) : elements[selector]) ?? []
    const one = async () => {
      if (matches.length !== 1) throw new Error(`strict mode violation: ${selector} resolved to ${matches.length} elements`)
      return matches[0] ?? ""
    }
    return {
      first: () => locator(selector, true),
      innerText: one,
      evaluateAll: async (pageFunction) =>
        pageFunction(
          matches.map((text) => ({
            tagName: /^[a-z]+$/.test(selector) ? selector.toUpperCase() : "DIV",
            textContent: text,
            innerText: text,
            attributes: [{ name: "data-selector", value: selector }]
          }))
        ),
      click: async () => {
        await one()
        actions.push(`click ${selector}`)
      },
      fill: async (value) => {
        await one()
        actions.push(`fill ${selector} ${value}`)
      }
    }
  }
  const page: AutomationPage = {
    url: () => address,
    goto: async (url, options) => {
      actions.push(`goto ${url} ${options.waitUntil}`)
      address = url
      return null
    },
    locator: (selector) => locator(selector)
  }
  return { page, actions }
}

describe("automationPage", () => {
  const document = { body: ["Hello world"], li: ["one", "two"], "#name": ["field"], "#go": ["Go"] }

  it("reads the url, the text and every match through the automation page", async () => {
    const { page } = fakePage(document)
    const subject = automationPage(page)
    expect(await subject.url()).toBe("about:blank")
    expect(await subject.text()).toBe("Hello world")
    expect(await subject.text("li")).toBe("one")
    expect(await subject.query("li")).toEqual([
      { tag: "li", text: "one", attributes: { "data-selector": "li" } },
      { tag: "li", text: "two", attributes: { "data-selector": "li" } }
    ])
    expect(await subject.query("table")).toEqual([])
  })

  it("clicks, types and navigates, waiting for the DOM", async () => {
    const { page, actions } = fakePage(document)
    const subject = automationPage(page)
    await subject.type("#name", "Ada")
    await subject.click("#go")
    await subject.navigate("https://example.com/next")
    expect(actions).toEqual(["fill #name Ada", "click #go", "goto https://example.com/next domcontentloaded"])
    expect(await subject.url()).toBe("https://example.com/next")
  })

  it("fails when a click is ambiguous or finds nothing", async () => {
    const subject = automationPage(fakePage(document).page)
    await expect(subject.click("li")).rejects.toThrow(/resolved to 2 elements/)
    await expect(subject.click("#missing")).rejects.toThrow(/resolved to 0 elements/)
  })

  it.each(["file:///etc/passwd", "javascript:alert(1)", "data:text/html,hi", "not a url", "chrome://settings"])(
    "refuses to navigate to %s",
    async (url) => {
      const { page, actions } = fakePage(document)
      await expect(automationPage(page).navigate(url)).rejects.toBeInstanceOf(UnsafeUrlError)
      await expect(automationPage(page).navigate(url)).rejects.toThrow(/only http, https and about:blank/)
      expect(actions).toEqual([])
    }
  )
})

describe("unavailablePage", () => {
  const calls: ReadonlyArray<readonly [string, (page: Page) => Promise<unknown>]> = [
    ["url", (page) => page.url()],
    ["text", (page) => page.text()],
    ["query", (page) => page.query("li")],
    ["click", (page) => page.click("#go")],
    ["type", (page) => page.type("#name", "x")],
    ["navigate", (page) => page.navigate("https://example.com")]
  ]

  it.each(calls)("fails %s loudly with DomainUnavailableError naming the missing capability", async (_, call) => {
    const error: unknown = await call(unavailablePage("no browser is connected")).then(
      (value) => ({ resolved: value }),
      (reason: unknown) => reason
    )
    expect(error).toBeInstanceOf(DomainUnavailableError)
    expect(error).toMatchObject({ _tag: "DomainUnavailableError", object: "page", missing: "no browser is connected" })
    expect(String((error as Error).message)).toBe("page is unavailable: no browser is connected")
  })
})

describe("DomainUnavailableError", () => {
  it("is Schema-backed: its class encodes and decodes its fields", () => {
    const error = new DomainUnavailableError({ object: "page", missing: "a browser" })
    const encoded = Schema.encodeUnknownSync(DomainUnavailableError)(error)
    expect(encoded).toEqual({ _tag: "DomainUnavailableError", object: "page", missing: "a browser" })
    expect(Schema.decodeUnknownSync(DomainUnavailableError)(encoded)).toBeInstanceOf(DomainUnavailableError)
  })
})

describe("pageTools", () => {
  it("exposes each Page method as a tool with Schemas and a description", async () => {
    const { page, actions } = fakePage({ body: ["Body"], li: ["a", "b"], "#q": ["input"], "#s": ["Search"] })
    const tools = pageTools(automationPage(page))
    expect(Object.keys(tools)).toEqual(["url", "text", "query", "click", "type", "navigate"])
    for (const tool of Object.values(tools)) expect(tool.description.length).toBeGreaterThan(10)
    expect(await tools.url.run()).toBe("about:blank")
    expect(await tools.text.run(undefined)).toBe("Body")
    expect(await tools.text.run({ selector: "li" })).toBe("a")
    expect((await tools.query.run({ selector: "li" })).map((node) => node.text)).toEqual(["a", "b"])
    expect(await tools.type.run({ selector: "#q", text: "armory" })).toBeNull()
    expect(await tools.click.run({ selector: "#s" })).toBeNull()
    expect(await tools.navigate.run({ url: "https://example.com" })).toBeNull()
    expect(actions).toEqual(["fill #q armory", "click #s", "goto https://example.com domcontentloaded"])
    expect(Schema.decodeUnknownSync(tools.type.input)({ selector: "#q", text: "x" })).toEqual({ selector: "#q", text: "x" })
  })

  it("passes the unavailable page's error through unchanged", async () => {
    await expect(pageTools(unavailablePage("no browser")).text.run({})).rejects.toBeInstanceOf(DomainUnavailableError)
  })
})
