import { describeRequiring } from "@armory/config/test-components"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { setTimeout as sleep } from "node:timers/promises"
import { afterAll, beforeAll, expect, it } from "vitest"
import { automationPage, connect, disconnect, getAutomationPage, runJob } from "../src/index.js"
import { type LaunchedChromium, launchChromium } from "./support/chromium.js"
import { type FixtureSite, startFixtureSite } from "./support/servers.js"
import { type PageTarget, pageTargets } from "./support/targets.js"


const until = async <A>(what: string, read: () => A | null | Promise<A | null>, timeoutMs = 10_000): Promise<A> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (value !== null) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(50)
  }
}

/** Clicks a link in the user's own tab over its own DevTools socket, as the user's click would. */
const clickInUserTab = async (target: PageTarget, selector: string): Promise<void> => {
  const socket = new WebSocket(target.webSocketDebuggerUrl)
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve)
    socket.addEventListener("error", reject)
  })
  const answered = new Promise((resolve) => socket.addEventListener("message", resolve))
  socket.send(
    JSON.stringify({ id: 1, method: "Runtime.evaluate", params: { expression: `document.querySelector(${JSON.stringify(selector)}).click()`, userGesture: true } })
  )
  await answered
  socket.close()
}

describeRequiring("browser", "cleanup receipts, popups and the user's downloads on a real Chromium", () => {
  let chromium: LaunchedChromium
  let site: FixtureSite
  let downloads: string

  beforeAll(async () => {
    downloads = await mkdtemp(join(tmpdir(), "armory-user-downloads-"))
    ;[chromium, site] = await Promise.all([launchChromium(0, { downloadsDirectory: downloads }), startFixtureSite()])
  })
  afterAll(async () => {
    await Promise.all([chromium?.kill(), site?.close(), downloads === undefined ? undefined : rm(downloads, { recursive: true, force: true })])
  })

  it.each([false, true])("closes the popups its page opened and proves every page and context gone (reuseDefaultContext %s)", async (reuseDefaultContext) => {
    const userUrl = `${site.url}/login?user=${String(reuseDefaultContext)}`
    const user = (await (await fetch(`${chromium.cdpUrl}/json/new?${userUrl}`, { method: "PUT" })).json()) as PageTarget
    const connection = await connect({ provider: "chrome-cdp", cdpUrl: chromium.cdpUrl })
    const session = await getAutomationPage(connection, { reuseDefaultContext })
    const page = automationPage(session.page)
    await page.navigate(`${site.url}/popups`)
    await page.click("#open")
    await page.click("#blank")
    await until("both popups", async () => {
      const urls = (await pageTargets(chromium.cdpUrl)).map((target) => target.url)
      return urls.includes(`${site.url}/plain?popup=script`) && urls.includes(`${site.url}/plain?popup=link`) ? true : null
    })

    const receipt = await session.cleanup()
    await disconnect(connection)

    expect(receipt.verified).toBe(true)
    expect(receipt.blocker).toBeNull()
    const pages = receipt.items.filter((item) => item.kind === "page")
    expect(pages).toHaveLength(3)
    for (const item of pages) expect(item).toMatchObject({ removed: true, proof: "absent from Target.getTargets" })
    expect(receipt.items.filter((item) => item.kind === "context")).toHaveLength(reuseDefaultContext ? 0 : 1)
    const remaining = await pageTargets(chromium.cdpUrl)
    expect(remaining.map((target) => target.url).filter((url) => url.includes("popup"))).toEqual([])
    expect(remaining.map((target) => target.id)).toContain(user.id)
    for (const id of pages.map((item) => item.id)) expect(remaining.map((target) => target.id)).not.toContain(id)
  })

  it("removes the downloads its own page started, and says so in the receipt", async () => {
    const connection = await connect({ provider: "chrome-cdp", cdpUrl: chromium.cdpUrl })
    const session = await getAutomationPage(connection)
    const page = automationPage(session.page)
    await page.navigate(`${site.url}/popups`)
    await page.click("#download")
    const result = await runJob({
      page: session.page,
      steps: [() => sleep(500)],
      cleanup: session.cleanup
    })
    await disconnect(connection)
    expect({ status: result.status, cleanup: result.cleanup }).toMatchObject({ status: "complete" })
    const download = result.cleanup?.items.find((item) => item.kind === "download")
    expect(download).toMatchObject({ id: "armory-fixture.txt", removed: true })
    expect(readdirSync(downloads)).toEqual([])
  })

  it("leaves the user's own downloads where the browser puts them while it is connected, and after", async () => {
    const user = (await (await fetch(`${chromium.cdpUrl}/json/new?${site.url}/popups`, { method: "PUT" })).json()) as PageTarget
    await until("the user's tab to load", async () =>
      (await pageTargets(chromium.cdpUrl)).some((target) => target.id === user.id && target.url.endsWith("/popups")) ? true : null
    )
    const connection = await connect({ provider: "chrome-cdp", cdpUrl: chromium.cdpUrl })
    const session = await getAutomationPage(connection)
    await clickInUserTab(user, "#download")
    const landed = join(downloads, "armory-fixture.txt")
    await until("the user's download in their download folder", () => (existsSync(landed) ? true : null))
    await session.cleanup()
    await disconnect(connection)
    expect(readFileSync(landed, "utf8")).toBe("a fixture download\n")
  })
})
