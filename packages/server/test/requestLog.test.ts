import { createClient } from "@armory/client"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { rawRequest } from "./support/rawRequest.js"
import { type LogLine, type RunningServer, startServer, TOKEN } from "./support/server.js"

const logs: Array<LogLine> = []
let server: RunningServer
beforeAll(async () => {
  server = await startServer({ logs, goalOperator: "release-manager" })
})
afterAll(() => server.close())

const requestLines = () =>
  logs
    .filter((line) => line.message[0] === "request")
    .map((line): Record<string, unknown> => ({ level: line.level, ...(line.message[1] as Record<string, unknown>) }))

describe("the request log", () => {
  it("has one info line per request, its id also in the response, and never a token or a body", async () => {
    logs.length = 0
    const secretPrompt = "merge the quarterly-secret pdf"
    const response = await rawRequest(`${server.url}/skills/arm?trace=1`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ prompt: secretPrompt })
    })
    expect(response.status).toBe(200)
    const misdirected = await rawRequest(`${server.url}/health`, { headers: { host: "evil.example" } })
    expect(misdirected.status).toBe(421)
    const lines = requestLines()
    expect(lines).toEqual([
      expect.objectContaining({ level: "Info", method: "POST", route: "/skills/arm", status: 200, requestId: response.headers["x-request-id"] }),
      expect.objectContaining({ level: "Info", method: "GET", route: "/health", status: 421, requestId: misdirected.headers["x-request-id"] })
    ])
    expect(lines.every((line) => typeof line["durationMs"] === "number")).toBe(true)
    const everything = JSON.stringify(logs)
    expect(everything).not.toContain(TOKEN)
    expect(everything).not.toContain("quarterly-secret")
  })

  it("logs every forced goal mutation, an operator's action, at warn with its outcome", async () => {
    logs.length = 0
    const client = createClient({ baseUrl: server.url, token: TOKEN })
    const query = { sessionId: "forced-log" }
    await client.POST("/goals/set", { params: { query }, body: { objective: "ship logs" } })
    expect(logs.filter((line) => line.level === "Warn")).toEqual([])
    await client.POST("/goals/checkpoint", { params: { query }, body: { summary: "halfway", force: true } })
    const warnings = logs.filter((line) => line.level === "Warn").map((line) => line.message)
    expect(warnings).toEqual([
      ["operator action", { operation: "checkpoint", sessionId: "forced-log", operator: "release-manager", outcome: "done" }]
    ])
  })
})
