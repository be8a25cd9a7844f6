import { runBench } from "@armory/bench"
import { connect, disconnect, getAutomationPage, runJob } from "@armory/browser-runtime"
import { chromium } from "playwright-core"
import { launchChromium } from "../test/support/chromium.ts"
import { startFixtureSite } from "../test/support/servers.ts"

const [browser, site] = await Promise.all([launchChromium(), startFixtureSite()])
const url = `${site.url}/plain`

/** Armory: probe, connect, a page of its own, one declared step, clean up and disconnect. */
const ours = async () => {
  const connection = await connect({ provider: "chrome-cdp", cdpUrl: browser.cdpUrl })
  const session = await getAutomationPage(connection)
  const result = await runJob({ url, page: session.page, steps: [({ page }) => page.locator("h1").innerText()] })
  if (result.status !== "complete") throw new Error(`the job did not complete: ${JSON.stringify(result)}`)
  await session.cleanup()
  await disconnect(connection)
}

/** The anchor: playwright-core's connectOverCDP, a new context and page, goto, the same read, close. */
const anchor = async () => {
  const connected = await chromium.connectOverCDP(browser.cdpUrl)
  const context = await connected.newContext()
  const page = await context.newPage()
  await page.goto(url, { waitUntil: "domcontentloaded" })
  await page.locator("h1").innerText()
  await page.close()
  await context.close()
  await connected.close()
}

try {
  await runBench({
    name: "browser-runtime",
    anchor: "playwright-core 1.65 connectOverCDP + newContext/newPage + goto + the same read",
    timeMs: 8000,
    warmupMs: 1000,
    // The bar: ours at most 1.1× the anchor's median, i.e. anchor median / ours median at least 1/1.1.
    cases: [{ name: "connect + one-step job against local Chromium", ours, anchor, target: { ratio: 1 / 1.1 } }]
  })
} finally {
  await Promise.all([browser.kill(), site.close()])
}
