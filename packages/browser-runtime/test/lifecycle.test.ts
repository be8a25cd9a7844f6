import { describeRequiring } from "@armory/config/test-components"
import { afterAll, beforeAll, expect, it } from "vitest"
import { connect, disconnect, getAutomationPage, probeCdp, runJob, StepFailedError } from "../src/index.js"
import { type LaunchedChromium, launchChromium, processAlive } from "./support/chromium.js"
import { type FixtureSite, startFixtureSite } from "./support/servers.js"
import { type PageTarget, pageTargets } from "./support/targets.js"

describeRequiring("browser", "lifecycle on a real Chromium", () => {
  let chromium: LaunchedChromium
  let site: FixtureSite

  beforeAll(async () => {
    ;[chromium, site] = await Promise.all([launchChromium(), startFixtureSite()])
  })
  afterAll(async () => {
    await Promise.all([chromium?.kill(), site?.close()])
  })

  it.each([false, true])(
    "closes only what it created and leaves the browser and the user's page running (reuseDefaultContext %s)",
    async (reuseDefaultContext) => {
      // The user's own tab, opened before the runtime connects.
      const userUrl = `${site.url}/login?user=${String(reuseDefaultContext)}`
      const opened = await fetch(`${chromium.cdpUrl}/json/new?${userUrl}`, { method: "PUT" })
      const userTarget = (await opened.json()) as PageTarget
      const ownedUrl = `${site.url}/plain?owned=${String(reuseDefaultContext)}`

      const connection = await connect({ provider: "chrome-cdp", cdpUrl: chromium.cdpUrl })
      const session = await getAutomationPage(connection, { reuseDefaultContext })
      expect({ ownsPage: session.ownsPage, ownsContext: session.ownsContext }).toEqual({
        ownsPage: true,
        ownsContext: !reuseDefaultContext
      })
      await runJob({ url: ownedUrl, page: session.page, steps: [({ page }) => page.url()] })
      expect((await pageTargets(chromium.cdpUrl)).map((target) => target.url)).toContain(ownedUrl)

      await session.cleanup()
      await disconnect(connection)

      expect(processAlive(chromium.pid)).toBe(true)
      expect((await probeCdp(chromium.cdpUrl)).browser).toMatch(/Chrome/)
      const remaining = await pageTargets(chromium.cdpUrl)
      expect(remaining.map((target) => target.url)).not.toContain(ownedUrl)
      expect(remaining.map((target) => target.id)).toContain(userTarget.id)
      expect(remaining.find((target) => target.id === userTarget.id)?.url).toBe(userUrl)
    }
  )

  it("fails a job typed when Chromium dies mid-job, and reconnects after a restart on the same port", async () => {
    const doomed = await launchChromium()
    let restarted: LaunchedChromium | undefined
    try {
      const first = await probeCdp(doomed.cdpUrl)
      const connection = await connect({ provider: "chrome-cdp", cdpUrl: doomed.cdpUrl })
      const session = await getAutomationPage(connection)
      const error = await runJob({
        url: `${site.url}/plain`,
        page: session.page,
        stepTimeoutMs: 5000,
        steps: [
          ({ page }) => page.locator("h1").innerText(),
          async ({ page }) => {
            await doomed.kill()
            return page.locator("h1").innerText()
          }
        ]
      }).catch((failure: unknown) => failure)
      expect(error).toBeInstanceOf(StepFailedError)
      expect(error).toMatchObject({ index: 1 })
      expect(processAlive(doomed.pid)).toBe(false)
      await disconnect(connection)

      restarted = await launchChromium(doomed.port)
      const second = await probeCdp(restarted.cdpUrl)
      expect(second.webSocketDebuggerUrl).not.toBe(first.webSocketDebuggerUrl)
      const again = await connect({ provider: "chrome-cdp", cdpUrl: doomed.cdpUrl })
      const page = await getAutomationPage(again)
      const result = await runJob({ url: `${site.url}/plain`, page: page.page, steps: [({ page: p }) => p.locator("h1").innerText()] })
      expect(result).toEqual({ status: "complete", results: ["Fixture page"] })
      await page.cleanup()
      await disconnect(again)
    } finally {
      await doomed.kill()
      await restarted?.kill()
    }
  })
})
