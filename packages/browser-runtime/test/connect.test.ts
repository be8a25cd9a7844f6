import { describeRequiring } from "@armory/config/test-components"
import { afterAll, beforeAll, expect, it } from "vitest"
import {
  BrowserUnavailableError,
  connect,
  disconnect,
  PlaywrightUnavailableError,
  type ProbeTarget,
  probeCdp,
  probeTarget
} from "../src/index.js"
import { type LaunchedChromium, launchChromium } from "./support/chromium.js"
import { startNodeInspector } from "./support/inspector.js"
import { type FakeCdpKind, type LoopbackServer, listen, startFakeCdp } from "./support/servers.js"


describeRequiring("browser", "probeCdp and connect against a real Chromium", () => {
  let chromium: LaunchedChromium

  beforeAll(async () => {
    chromium = await launchChromium()
  })
  afterAll(async () => {
    await chromium?.kill()
  })

  it("verifies the real browser's /json/version", async () => {
    const version = await probeCdp(chromium.cdpUrl)
    expect(version.browser).toMatch(/^(Headless)?Chrome\/\d+/)
    expect(version.webSocketDebuggerUrl).toMatch(new RegExp(`^ws://127\\.0\\.0\\.1:${chromium.port}/devtools/browser/`))
  })

  it("refuses a real Node.js inspector: it answers /json/version but is not a browser", async () => {
    const inspector = await startNodeInspector()
    try {
      const error = await probeCdp(inspector.url).catch((failure: unknown) => failure)
      expect(error).toBeInstanceOf(BrowserUnavailableError)
      expect(error).toMatchObject({ code: "UNAVAILABLE", endpoint: inspector.url })
      expect((error as BrowserUnavailableError).reason).toMatch(/not a browser's \/json\/version/)
    } finally {
      await inspector.stop()
    }
  })

  const impostors: ReadonlyArray<readonly [FakeCdpKind, RegExp]> = [
    ["html", /not JSON/],
    ["invalid-json", /not JSON/],
    ["huge", /exceeds 65536 bytes/],
    ["hang", /no complete answer within 2000 ms/],
    ["foreign-websocket", /points at 203\.0\.113\.7:9222, not the probed/],
    ["page-websocket", /not a browser endpoint/]
  ]

  // A hanging answer is refused by the deadline alone (its reason names it); were it not, the probe
  // would wait forever and the test would never finish. The deadline leaves a loaded machine time to
  // answer the other impostors, so they are refused for what they answer.
  it.each(impostors)("refuses a %s answer with a typed UNAVAILABLE and never connects", async (kind, reason) => {
    const fake = await startFakeCdp(kind)
    const connects: Array<string> = []
    try {
      const probed = await probeCdp(fake.url, { timeoutMs: 2000 }).catch((failure: unknown) => failure)
      expect(probed).toBeInstanceOf(BrowserUnavailableError)
      expect((probed as BrowserUnavailableError).reason).toMatch(reason)

      const connected = await connect({
        provider: "chrome-cdp",
        cdpUrl: fake.url,
        probeTimeoutMs: 2000,
        connectLoader: async (endpoint) => {
          connects.push(endpoint)
          throw new Error("must not be called")
        }
      }).catch((failure: unknown) => failure)
      expect(connected).toBeInstanceOf(BrowserUnavailableError)
      expect(connected).toMatchObject({ code: "UNAVAILABLE", provider: "chrome-cdp", endpoint: fake.url })
      expect(connects).toEqual([])
      expect(fake.hits()).toBe(2)
    } finally {
      await fake.close()
    }
  })

  it("refuses a closed port and a non-http address", async () => {
    const closed = await listen(() => undefined)
    await closed.close()
    await expect(probeCdp(closed.url)).rejects.toMatchObject({ code: "UNAVAILABLE", reason: expect.stringMatching(/ECONNREFUSED/) })
    await expect(probeCdp(`ws://127.0.0.1:${chromium.port}`)).rejects.toMatchObject({
      reason: "expected an http or https address, got ws:"
    })
  })

  it("connects to the real browser through the websocket the probe verified", async () => {
    const endpoints: Array<string> = []
    const connection = await connect({
      provider: "chrome-cdp",
      cdpUrl: chromium.cdpUrl,
      chromiumLoader: async () => {
        const { chromium: playwright } = await import("playwright-core")
        return {
          connectOverCDP: (endpoint, options) => {
            endpoints.push(endpoint)
            return playwright.connectOverCDP(endpoint, options)
          }
        }
      }
    })
    try {
      expect(connection).toMatchObject({ kind: "cdp", provider: "chrome-cdp", cdpUrl: chromium.cdpUrl })
      expect(connection.kind === "cdp" && connection.browser.isConnected()).toBe(true)
      expect(endpoints).toHaveLength(1)
      expect(endpoints[0]).toMatch(new RegExp(`^ws://127\\.0\\.0\\.1:${chromium.port}/devtools/browser/`))
    } finally {
      await disconnect(connection)
    }
  })

  it("turns a connect failure after a good probe into UNAVAILABLE, and auto mode moves on", async () => {
    const impostor = await startFakeCdp("not-a-browser")
    try {
      await expect(connect({ provider: "browseros", cdpUrl: impostor.url, connectTimeoutMs: 3000 })).rejects.toMatchObject({
        _tag: "BrowserUnavailableError",
        provider: "browseros",
        reason: expect.stringMatching(/^connect failed: /)
      })
      const connection = await connect({
        platform: "linux",
        env: { ARMORY_BROWSEROS_CDP_URL: impostor.url, ARMORY_ASIDE_COMMAND: "armory-no-such-aside", ARMORY_CHROME_CDP_URL: chromium.cdpUrl, PATH: process.env["PATH"] },
        connectTimeoutMs: 3000
      })
      expect(connection.provider).toBe("chrome-cdp")
      await disconnect(connection)
    } finally {
      await impostor.close()
    }
  })

  it("auto order: a closed BrowserOS port, a Node inspector, a missing aside, then the real chrome-cdp", async () => {
    const closed = await listen(() => undefined)
    await closed.close()
    const inspector = await startNodeInspector()
    try {
      for (const browserosUrl of [closed.url, inspector.url]) {
        const probed: Array<string> = []
        const connection = await connect({
          platform: "linux",
          env: {
            ARMORY_BROWSEROS_CDP_URL: browserosUrl,
            ARMORY_ASIDE_COMMAND: "armory-no-such-aside",
            KSKILL_CHROME_CDP_URL: chromium.cdpUrl,
            PATH: process.env["PATH"]
          },
          probe: (target: ProbeTarget) => {
            probed.push(`${target.provider} ${target.endpoint}`)
            return probeTarget(target)
          }
        })
        expect(connection).toMatchObject({ kind: "cdp", provider: "chrome-cdp", cdpUrl: chromium.cdpUrl })
        expect(probed).toEqual([`browseros ${browserosUrl}`, "aside armory-no-such-aside", `chrome-cdp ${chromium.cdpUrl}`])
        await disconnect(connection)
      }
    } finally {
      await inspector.stop()
    }
  })

  it("lists every attempt when nothing in the auto order is available", async () => {
    const closed: LoopbackServer = await listen(() => undefined)
    await closed.close()
    const error = await connect({
      platform: "darwin",
      env: { ARMORY_BROWSEROS_CDP_URL: closed.url, ARMORY_CHROME_CDP_URL: closed.url, ARMORY_ASIDE_COMMAND: "armory-no-such-aside", PATH: "/usr/bin:/bin" }
    }).catch((failure: unknown) => failure)
    expect(error).toBeInstanceOf(BrowserUnavailableError)
    const unavailable = error as BrowserUnavailableError
    expect(unavailable.provider).toBe("auto")
    expect(unavailable.attempts.map((attempt) => attempt.provider)).toEqual(["aside", "browseros", "chrome-cdp"])
    expect(unavailable.message).toMatch(/^no browser provider is available: aside \(armory-no-such-aside\): /)
  })

  it("fails with PLAYWRIGHT_UNAVAILABLE when the injected chromium loader cannot load playwright, per call", async () => {
    const missing = await connect({
      provider: "chrome-cdp",
      cdpUrl: chromium.cdpUrl,
      chromiumLoader: () => Promise.reject(new Error("Cannot find package 'playwright-core'"))
    }).catch((failure: unknown) => failure)
    expect(missing).toBeInstanceOf(PlaywrightUnavailableError)
    expect(missing).toMatchObject({ code: "PLAYWRIGHT_UNAVAILABLE", reason: "Cannot find package 'playwright-core'" })
    // The next caller's loader is used, not a cached result of the first.
    const connection = await connect({ provider: "chrome-cdp", cdpUrl: chromium.cdpUrl })
    expect(connection.provider).toBe("chrome-cdp")
    await disconnect(connection)
  })
})
