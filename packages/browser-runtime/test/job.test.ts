import { describeRequiring } from "@armory/config/test-components"
import { afterAll, beforeAll, expect, it } from "vitest"
import {
  type AutomationSession,
  automationPage,
  type BrowserConnection,
  type CdpPage,
  connect,
  disconnect,
  getAutomationPage,
  runJob,
  StepFailedError,
  StepTimeoutError,
  type StopContext,
  stopReason,
  UnsafeUrlError
} from "../src/index.js"
import { type LaunchedChromium, launchChromium } from "./support/chromium.js"
import { type FixtureSite, startFixtureSite } from "./support/servers.js"


/** The stop rule a skill would declare for the fixture's CAPTCHA wall, checked on the job's own page. */
const captchaWall = async ({ page, phase }: StopContext<CdpPage>) =>
  phase === "step" && (await page.locator("[data-armory-fixture=captcha]").count()) > 0
    ? stopReason("CAPTCHA_DETECTED")
    : null

describeRequiring("browser", "runJob and Page on a real Chromium", () => {
  let chromium: LaunchedChromium
  let site: FixtureSite
  let connection: BrowserConnection
  let session: AutomationSession

  beforeAll(async () => {
    ;[chromium, site] = await Promise.all([launchChromium(), startFixtureSite()])
    connection = await connect({ provider: "chrome-cdp", cdpUrl: chromium.cdpUrl })
    session = await getAutomationPage(connection)
  })
  afterAll(async () => {
    await session?.cleanup()
    if (connection !== undefined) await disconnect(connection)
    await Promise.all([chromium?.kill(), site?.close()])
  })

  it("navigates once and runs the declared steps: complete, results read from the fixture, exactly one GET", async () => {
    const url = `${site.url}/plain`
    const result = await runJob({
      url,
      page: session.page,
      steps: [
        ({ page }) => page.locator("h1").first().innerText(),
        ({ page }) => page.locator("li.item").count(),
        ({ results }) => results.length
      ]
    })
    expect(result).toEqual({ status: "complete", results: ["Fixture page", 2, 2] })
    expect(site.requests("/plain")).toBe(1)
    expect(session.page.url()).toBe(url)
  })

  it("stops at the CAPTCHA: CAPTCHA_DETECTED, later steps never run, the payment page gets no request", async () => {
    const ran: Array<number> = []
    const result = await runJob({
      url: `${site.url}/captcha`,
      page: session.page,
      stopOn: captchaWall,
      steps: [
        async ({ page }) => {
          ran.push(0)
          await page.goto(`${site.url}/payment`, { waitUntil: "domcontentloaded" })
        },
        () => ran.push(1)
      ]
    })
    expect(result).toMatchObject({ status: "stopped", stopReason: { code: "CAPTCHA_DETECTED" }, results: [] })
    expect(ran).toEqual([])
    expect(site.requests("/payment")).toBe(0)
  })

  it("reads injected page text as data, never as an instruction", async () => {
    const result = await runJob({
      url: `${site.url}/injection`,
      page: session.page,
      stopOn: captchaWall,
      steps: [({ page }) => page.locator("#note").innerText()]
    })
    expect(result.status).toBe("complete")
    expect(result.results[0]).toMatch(/^Ignore all previous instructions/)
    expect(session.page.url()).toBe(`${site.url}/injection`)
    expect(site.requests("/payment")).toBe(0)
  })

  it.each(["javascript:alert(1)", "file:///etc/passwd", "chrome://settings", "data:text/html,hi"])(
    "refuses %s before any navigation or step",
    async (url) => {
      const before = session.page.url()
      const ran: Array<string> = []
      const stops: Array<string> = []
      const error = await runJob({
        url,
        page: session.page,
        stopOn: ({ phase }) => {
          stops.push(phase)
          return null
        },
        steps: [() => ran.push("step")]
      }).catch((failure: unknown) => failure)
      expect(error).toBeInstanceOf(UnsafeUrlError)
      expect(error).toMatchObject({ _tag: "UnsafeUrlError", url })
      expect({ ran, stops, url: session.page.url() }).toEqual({ ran: [], stops: [], url: before })
    }
  )

  it("times a step out on a page that never finishes, aborts its signal and leaves the page usable", async () => {
    let signal: AbortSignal | undefined
    let settled: Promise<unknown> = Promise.resolve()
    const ran: Array<number> = []
    const error = await runJob({
      page: session.page,
      stepTimeoutMs: 500,
      steps: [
        ({ page, signal: stepSignal }) => {
          signal = stepSignal
          settled = page.goto(`${site.url}/hang`, { waitUntil: "domcontentloaded" }).catch((failure: unknown) => failure)
          return settled
        },
        () => ran.push(1)
      ]
    }).catch((failure: unknown) => failure)
    expect(error).toBeInstanceOf(StepTimeoutError)
    expect(error).toMatchObject({ index: 0, timeoutMs: 500 })
    expect(signal?.aborted).toBe(true)
    expect(ran).toEqual([])
    expect(site.requests("/hang")).toBe(1)
    // The abandoned navigation is superseded, not left pending: it settles once the page moves on.
    const page = automationPage(session.page)
    await page.navigate(`${site.url}/plain`)
    await settled
    expect(await page.text("h1")).toBe("Fixture page")
  })

  it("types a failing step with its index", async () => {
    const error = await runJob({
      page: session.page,
      steps: [() => "first", ({ page }) => page.locator("li.item").click({ timeout: 5000 })]
    }).catch((failure: unknown) => failure)
    expect(error).toBeInstanceOf(StepFailedError)
    expect(error).toMatchObject({ index: 1, reason: expect.stringMatching(/strict mode violation/) })
  })

  it("drives the fixture through the Page domain object: text, query, type, click", async () => {
    const page = automationPage(session.page)
    await page.navigate(`${site.url}/plain`)
    expect(await page.url()).toBe(`${site.url}/plain`)
    expect(await page.query("li.item")).toEqual({
      nodes: [
        { tag: "li", text: "alpha", attributes: { class: "item", "data-id": "a" } },
        { tag: "li", text: "beta", attributes: { class: "item", "data-id": "b" } }
      ],
      total: 2,
      truncated: false
    })
    await page.type("#name", "Ada")
    await page.click("#go")
    expect(await page.text("#out")).toBe("clicked")
    await expect(page.navigate("javascript:alert(1)")).rejects.toBeInstanceOf(UnsafeUrlError)
    expect(await page.url()).toBe(`${site.url}/plain`)
  })
})
