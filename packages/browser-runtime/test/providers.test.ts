import { describe, expect, it } from "vitest"
import {
  AUTO_ORDER,
  connect,
  DARWIN_AUTO_ORDER,
  DEFAULT_BROWSEROS_CDP_URL,
  DEFAULT_CHROME_CDP_URL,
  isKnownProvider,
  normalizeProvider,
  PROVIDERS,
  resolveAsideCommand,
  resolveAutoOrder,
  resolveCdpUrl,
  UnknownProviderError
} from "../src/index.js"

describe("providers and environment", () => {
  it("orders auto by platform: Aside first on macOS, BrowserOS first elsewhere", () => {
    expect(resolveAutoOrder("darwin")).toEqual(["aside", "browseros", "chrome-cdp"])
    expect(resolveAutoOrder("linux")).toEqual(["browseros", "aside", "chrome-cdp"])
    expect(resolveAutoOrder("win32")).toBe(AUTO_ORDER)
    expect(resolveAutoOrder("darwin")).toBe(DARWIN_AUTO_ORDER)
    expect([PROVIDERS.AUTO, "browseros", "aside", "chrome-cdp", "chrome"].map(isKnownProvider)).toEqual([false, true, true, true, false])
  })

  it("takes the explicit provider, then ARMORY_*, then the KSKILL_* alias, then auto", () => {
    expect(normalizeProvider(undefined, {})).toBe("auto")
    expect(normalizeProvider(undefined, { KSKILL_BROWSER_PROVIDER: "aside" })).toBe("aside")
    expect(normalizeProvider(undefined, { KSKILL_BROWSER_PROVIDER: "aside", ARMORY_BROWSER_PROVIDER: " Chrome-CDP " })).toBe("chrome-cdp")
    expect(normalizeProvider("browseros", { ARMORY_BROWSER_PROVIDER: "aside" })).toBe("browseros")
    expect(normalizeProvider("", { ARMORY_BROWSER_PROVIDER: "" })).toBe("auto")
  })

  it.each(["chrome", "playwright", "auto,chrome-cdp"])("fails closed on the unknown provider %s", (name) => {
    expect(() => normalizeProvider(name, {})).toThrow(UnknownProviderError)
    expect(() => normalizeProvider(undefined, { ARMORY_BROWSER_PROVIDER: name })).toThrow(
      expect.objectContaining({ code: "UNKNOWN_PROVIDER", provider: name })
    )
  })

  it("rejects an unknown provider from connect before probing anything", async () => {
    const probed: Array<string> = []
    const error = await connect({
      env: { KSKILL_BROWSER_PROVIDER: "firefox" },
      probe: async (target) => probed.push(target.provider)
    }).catch((failure: unknown) => failure)
    expect(error).toBeInstanceOf(UnknownProviderError)
    expect(probed).toEqual([])
  })

  it("keeps each CDP provider's own address; an explicit one applies to the chosen provider only", async () => {
    const env = { ARMORY_BROWSEROS_CDP_URL: "http://127.0.0.1:9300", KSKILL_CHROME_CDP_URL: "http://127.0.0.1:9400" }
    expect(resolveCdpUrl("browseros", { env: {} })).toBe(DEFAULT_BROWSEROS_CDP_URL)
    expect(resolveCdpUrl("chrome-cdp", { env: {} })).toBe(DEFAULT_CHROME_CDP_URL)
    expect(resolveCdpUrl("browseros", { env })).toBe("http://127.0.0.1:9300")
    expect(resolveCdpUrl("chrome-cdp", { env })).toBe("http://127.0.0.1:9400")
    expect(resolveCdpUrl("aside", { env })).toBeNull()
    expect(resolveCdpUrl("auto", { env })).toBeNull()
    expect(resolveCdpUrl("chrome-cdp", { env, cdpUrl: "http://127.0.0.1:9500" })).toBe("http://127.0.0.1:9500")
    expect(resolveAsideCommand({ env: {} })).toBe("aside")
    expect(resolveAsideCommand({ env: { KSKILL_ASIDE_COMMAND: "aside-beta" } })).toBe("aside-beta")

    const probed: Array<string> = []
    const probe = async (target: { provider: string; endpoint: string }) => {
      probed.push(`${target.provider} ${target.endpoint}`)
      throw new Error("closed")
    }
    await expect(connect({ provider: "chrome-cdp", cdpUrl: "http://127.0.0.1:9500", env, probe })).rejects.toMatchObject({
      code: "UNAVAILABLE"
    })
    expect(probed).toEqual(["chrome-cdp http://127.0.0.1:9500"])
    await expect(connect({ cdpUrl: "http://127.0.0.1:9500", env, probe })).rejects.toThrow(TypeError)
  })

  it("takes a probe's { ok: false } answer as unavailable, with its reason, and connects nothing", async () => {
    let loaded = 0
    const connectLoader = async () => {
      loaded++
      throw new Error("must not connect")
    }
    await expect(connect({ provider: "chrome-cdp", env: {}, probe: async () => ({ ok: false, reason: "port closed" }), connectLoader })).rejects.toMatchObject({
      code: "UNAVAILABLE",
      message: expect.stringContaining("port closed")
    })
    await expect(connect({ provider: "chrome-cdp", env: {}, probe: async () => ({ ok: false }), connectLoader })).rejects.toMatchObject({
      message: expect.stringContaining("the probe answered { ok: false }")
    })
    expect(loaded).toBe(0)
  })

  it("with probe: false connects straight to the address, in order, and moves on after a connect failure", async () => {
    const connected: Array<string> = []
    const error = await connect({
      platform: "linux",
      env: { ARMORY_ASIDE_COMMAND: "armory-no-such-aside", PATH: "/usr/bin:/bin" },
      probe: false,
      connectLoader: async (endpoint) => {
        connected.push(endpoint)
        throw new Error("refused")
      }
    }).catch((failure: unknown) => failure)
    expect(connected).toEqual([DEFAULT_BROWSEROS_CDP_URL, DEFAULT_CHROME_CDP_URL])
    expect(error).toMatchObject({ code: "UNAVAILABLE", provider: "auto" })
  })
})
