import { afterAll, beforeAll, expect, it } from "vitest"
import { loadLoop } from "./support/loadLoop.js"
import { rawRequest } from "./support/rawRequest.js"
import { type RunningServer, startServer, TOKEN } from "./support/server.js"

let server: RunningServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())

const headers = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" }

// A bounded version of `pnpm bench` (60 s at concurrency 32): a fixed number of requests, no clock.
it("serves GET /skills and POST /skills/arm at concurrency 32 with zero errors", async () => {
  const report = await loadLoop({
    concurrency: 32,
    count: 640,
    request: (index) =>
      index % 2 === 0
        ? rawRequest(`${server.url}/skills`, { headers })
        : rawRequest(`${server.url}/skills/arm`, {
            method: "POST",
            headers,
            body: JSON.stringify({ prompt: `summarise this pdf ${index}`, url: "https://docs.google.com/document/d/1" })
          })
  })
  expect(report).toEqual({ requests: 640, errors: 0, statuses: { 200: 640 } })
})
