import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect } from "effect"
import { FetchHttpClient } from "effect/http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createClient } from "@armory/client"
import { makeArmoryClient } from "@armory/client/effect"
import { NO_BROWSER_ENV, type RunningServer, startServer, TOKEN } from "./support/server.js"

/** A stand-in browser: it answers `/json/version` as Chrome does, naming its own host:port. */
let fakeBrowser: Server
let fakeUrl: string
let noBrowser: RunningServer
let withBrowser: RunningServer

beforeAll(async () => {
  fakeBrowser = createServer((request, response) => {
    const { port } = fakeBrowser.address() as AddressInfo
    response.setHeader("content-type", "application/json")
    response.end(
      request.url === "/json/version"
        ? JSON.stringify({ Browser: "Chrome/140.0", "Protocol-Version": "1.3", webSocketDebuggerUrl: `ws://127.0.0.1:${port}/devtools/browser/fake` })
        : "{}"
    )
  })
  await new Promise<void>((resolve) => fakeBrowser.listen(0, "127.0.0.1", resolve))
  fakeUrl = `http://127.0.0.1:${(fakeBrowser.address() as AddressInfo).port}`
  noBrowser = await startServer({ platform: "darwin" })
  withBrowser = await startServer({ browserEnv: { ...NO_BROWSER_ENV, ARMORY_CHROME_CDP_URL: fakeUrl } })
})
afterAll(async () => {
  await Promise.all([noBrowser.close(), withBrowser.close()])
  await new Promise((resolve) => fakeBrowser.close(resolve))
})

describe("GET /browser/providers", () => {
  it("reports the platform's auto order with every provider typed unavailable when no browser runs (fetch client)", async () => {
    const client = createClient({ baseUrl: noBrowser.url, token: TOKEN })
    const answer = await client.GET("/browser/providers")
    expect(answer.response.status).toBe(200)
    expect(answer.data?.platform).toBe("darwin")
    expect(answer.data?.order).toEqual(["aside", "browseros", "chrome-cdp"])
    expect(answer.data?.providers.map((entry) => [entry.provider, entry.status])).toEqual([
      ["aside", "unavailable"],
      ["browseros", "unavailable"],
      ["chrome-cdp", "unavailable"]
    ])
    expect(answer.data?.providers[2]?.error).toMatchObject({
      _tag: "BrowserUnavailableError",
      code: "UNAVAILABLE",
      provider: "chrome-cdp",
      endpoint: "http://127.0.0.1:1"
    })
  })

  it("reports a provider that answers as a browser as available (Effect client)", async () => {
    const answer = await Effect.runPromise(
      makeArmoryClient({ baseUrl: withBrowser.url, token: TOKEN }).pipe(
        Effect.flatMap((client) => client.browser.providers()),
        Effect.provide(FetchHttpClient.layer)
      )
    )
    expect(answer.order).toEqual(["browseros", "aside", "chrome-cdp"])
    expect(answer.providers.map((entry) => entry.status)).toEqual(["unavailable", "unavailable", "available"])
    expect(answer.providers[2]).toEqual({ provider: "chrome-cdp", endpoint: fakeUrl, status: "available", error: null })
    expect(answer.providers[0]?.error?._tag).toBe("BrowserUnavailableError")
  })
})
