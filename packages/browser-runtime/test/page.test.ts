import { Result, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { DomainUnavailableError, MAX_FILL_FIELDS, type Page, pageTools, StaleHandleError, unavailablePage } from "../src/index.js"

describe("unavailablePage", () => {
  const calls: ReadonlyArray<readonly [string, (page: Page) => Promise<unknown>]> = [
    ["url", (page) => page.url()],
    ["title", (page) => page.title()],
    ["text", (page) => page.text()],
    ["query", (page) => page.query("li")],
    ["snapshot", (page) => page.snapshot()],
    ["click", (page) => page.click({ ref: "e1" })],
    ["type", (page) => page.type("#name", "x")],
    ["select", (page) => page.select("#size", "l")],
    ["press", (page) => page.press("#name", "Enter")],
    ["hover", (page) => page.hover("#go")],
    ["value", (page) => page.value("#name")],
    ["waitFor", (page) => page.waitFor({ text: "done" })],
    ["screenshot", (page) => page.screenshot()],
    ["navigate", (page) => page.navigate("https://example.com")],
    ["dialogs", (page) => page.dialogs()]
  ]

  it("covers every Page method", () => {
    expect(calls.map(([name]) => name).toSorted()).toEqual(Object.keys(unavailablePage("x")).toSorted())
  })

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

/** A fill of `count` fields. */
const fields = (count: number) => ({ fields: Array.from({ length: count }, (_, index) => ({ selector: `#f${index}`, text: "x" })) })

describe("pageTools", () => {
  it("passes the unavailable page's error through unchanged", async () => {
    await expect(pageTools(unavailablePage("no browser")).text.run({})).rejects.toBeInstanceOf(DomainUnavailableError)
  })

  it("takes at most MAX_FILL_FIELDS fields in one fill, and at least one", () => {
    const decode = Schema.decodeUnknownResult(pageTools(unavailablePage("no browser")).fill.input)
    expect(Result.isSuccess(decode(fields(MAX_FILL_FIELDS)))).toBe(true)
    expect(Result.isFailure(decode(fields(MAX_FILL_FIELDS + 1)))).toBe(true)
    expect(Result.isFailure(decode(fields(0)))).toBe(true)
  })
})

describe("the page's typed errors", () => {
  it("are Schema-backed, so code mode hands the guest their fields", () => {
    const error = new StaleHandleError({ ref: "e4", snapshot: "s2", reason: "it is not in snapshot s2" })
    expect(Schema.encodeUnknownSync(StaleHandleError)(error)).toEqual({ _tag: "StaleHandleError", ref: "e4", snapshot: "s2", reason: "it is not in snapshot s2" })
    expect(error.message).toBe("ref e4 is stale (it is not in snapshot s2): take a new snapshot and pick the element again")
  })
})
