import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { tokenMatcher } from "@armory/host"
import { DEFAULT_MAX_BODY_BYTES } from "../src/index.js"
import { openApiText } from "@armory/api"
import { rawRequest } from "./support/rawRequest.js"
import { type RunningServer, startServer, TOKEN } from "./support/server.js"

let server: RunningServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())

interface Operation {
  readonly method: string
  readonly path: string
  readonly secured: boolean
}

const operations: ReadonlyArray<Operation> = Object.entries(
  (
    JSON.parse(openApiText()) as {
      readonly paths: Record<string, Record<string, { readonly security?: ReadonlyArray<unknown> }>>
    }
  ).paths
).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({
    method: method.toUpperCase(),
    path,
    secured: (operation.security ?? []).length > 0
  }))
)

const json = { "content-type": "application/json" }

describe("bearer token", () => {
  it("is required on every protected route: none and a wrong one are both 401", async () => {
    const secured = operations.filter((operation) => operation.secured)
    expect(secured.map((operation) => operation.path)).toEqual(
      expect.arrayContaining(["/skills", "/skills/arm", "/capabilities/probe", "/codemode/execute"])
    )
    for (const { method, path } of secured) {
      for (const headers of [json, { ...json, authorization: "Bearer not-the-token" }, { ...json, authorization: TOKEN }]) {
        const response = await rawRequest(`${server.url}${path}`, { method, headers, ...(method === "GET" ? {} : { body: "{}" }) })
        expect({ path, status: response.status }).toEqual({ path, status: 401 })
        expect(JSON.parse(response.body)).toMatchObject({ _tag: "Unauthorized" })
      }
    }
  })

  it("is not needed for /health, /docs and /openapi.json", async () => {
    for (const path of ["/health", "/docs", "/openapi.json"]) {
      expect((await rawRequest(`${server.url}${path}`)).status).toBe(200)
    }
  })

  it("is compared by digest, so only the exact token matches", () => {
    expect(tokenMatcher(TOKEN)(TOKEN)).toBe(true)
    expect(tokenMatcher(TOKEN)(`${TOKEN} `)).toBe(false)
    expect(tokenMatcher(TOKEN)(TOKEN.slice(0, -1))).toBe(false)
    expect(tokenMatcher(TOKEN)("")).toBe(false)
  })
})

describe("Host header", () => {
  it("must name the loopback server: a rebinding page's own name is refused with 421", async () => {
    for (const host of ["evil.example", "evil.example:80", "127.0.0.1.evil.example", "localhost.evil.example"]) {
      for (const path of ["/health", "/docs", "/skills"]) {
        const response = await rawRequest(`${server.url}${path}`, { headers: { host, authorization: `Bearer ${TOKEN}` } })
        expect({ host, path, status: response.status }).toEqual({ host, path, status: 421 })
        expect(JSON.parse(response.body)).toMatchObject({ _tag: "MisdirectedRequest", host })
      }
    }
  })

  it("must be exactly the address and port the server listens on, or localhost at that port", async () => {
    const port = Number(new URL(server.url).port)
    const refused = [
      `localhost:evil`,
      `[::1]evil.com`,
      `127.0.0.1:${port}evil.example`,
      `127.0.0.1:${port + 1}`,
      `localhost:${port + 1}`,
      "localhost",
      "127.0.0.1",
      `[::1]:${port}`,
      `127.0.0.2:${port}`
    ]
    for (const host of refused) {
      expect({ host, status: (await rawRequest(`${server.url}/health`, { headers: { host } })).status }).toEqual({ host, status: 421 })
    }
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`]) {
      expect({ host, status: (await rawRequest(`${server.url}/health`, { headers: { host } })).status }).toEqual({ host, status: 200 })
    }
  })

  it("is the address of a server on another loopback address, which answers it", async () => {
    const other = await startServer({}, "127.0.0.2")
    try {
      const { host } = new URL(other.url)
      expect(host.startsWith("127.0.0.2:")).toBe(true)
      expect((await rawRequest(`${other.url}/health`, { headers: { host } })).status).toBe(200)
      expect((await rawRequest(`${other.url}/health`, { headers: { host: host.replace("127.0.0.2", "127.0.0.1") } })).status).toBe(421)
    } finally {
      await other.close()
    }
  })
})

describe("request paths", () => {
  it("route only as written: a doubled or trailing slash, another case, a dot segment or an escape is not found", async () => {
    const authorization = `Bearer ${TOKEN}`
    for (const path of ["//skills", "/SKILLS", "/skills/", "/./skills", "/x/../skills", "/%73kills", "/skills/%2e%2e/health", "/Health", "/health//"]) {
      const response = await rawRequest(server.url, { path, headers: { authorization } })
      expect({ path, status: response.status }).toEqual({ path, status: 404 })
      expect(JSON.parse(response.body)).toMatchObject({ _tag: "RouteNotFound", method: "GET", path })
    }
    for (const path of ["/skills", "/skills?prompt=x", "/health", "/openapi.json", "/goals/status?sessionId=a"]) {
      const response = await rawRequest(server.url, { path, headers: { authorization } })
      expect({ path, status: response.status }).toEqual({ path, status: 200 })
    }
  })
})

describe("what no route takes", () => {
  it("an unknown path is 404 and a route's path with another method is 405 with Allow, each with a typed body", async () => {
    const authorization = `Bearer ${TOKEN}`
    const unknown = await rawRequest(`${server.url}/no-such-route`, { headers: { authorization } })
    expect(unknown.status).toBe(404)
    expect(JSON.parse(unknown.body)).toMatchObject({ _tag: "RouteNotFound", method: "GET", path: "/no-such-route" })
    for (const [method, path, allow] of [
      ["POST", "/skills", "GET"],
      ["GET", "/skills/arm", "POST"],
      ["DELETE", "/health", "GET"],
      ["PUT", "/openapi.json", "GET"]
    ] as const) {
      const response = await rawRequest(`${server.url}${path}`, { method, headers: { authorization, ...json }, ...(method === "GET" ? {} : { body: "{}" }) })
      expect({ method, path, status: response.status, allow: response.headers["allow"] }).toEqual({ method, path, status: 405, allow })
      expect(JSON.parse(response.body)).toMatchObject({ _tag: "MethodNotAllowed", method, path, allow: [allow] })
    }
  })

  it("is in the OpenAPI document: every operation lists the 404 and 405 bodies", () => {
    const document = JSON.parse(openApiText()) as {
      readonly paths: Record<string, Record<string, { readonly responses: Record<string, unknown> }>>
    }
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        expect({ path, method, statuses: Object.keys(operation.responses) }).toEqual({ path, method, statuses: expect.arrayContaining(["404", "405"]) })
      }
    }
  })
})

describe("request bodies", () => {
  it("over the limit are refused with 413 before they are read", async () => {
    const body = Buffer.alloc(10 * 1024 * 1024, 0x20)
    const response = await rawRequest(`${server.url}/skills/arm`, {
      method: "POST",
      headers: { ...json, authorization: `Bearer ${TOKEN}`, "content-length": String(body.length) },
      body
    })
    expect(response.status).toBe(413)
    expect(JSON.parse(response.body)).toMatchObject({ _tag: "PayloadTooLarge", limitBytes: DEFAULT_MAX_BODY_BYTES })
  })

  it("without a declared length are capped while they are read", async () => {
    const body = `{"prompt":"${"a".repeat(DEFAULT_MAX_BODY_BYTES + 10)}"}`
    const response = await rawRequest(`${server.url}/skills/arm`, {
      method: "POST",
      headers: { ...json, authorization: `Bearer ${TOKEN}`, "transfer-encoding": "chunked" },
      body
    })
    expect(response.status).toBe(413)
    expect(JSON.parse(response.body)).toMatchObject({ _tag: "PayloadTooLarge", limitBytes: DEFAULT_MAX_BODY_BYTES })
    expect((await rawRequest(`${server.url}/health`)).status).toBe(200)
  })

  it("that are not JSON, or say nothing of their type, are refused with a typed 415 before they are read", async () => {
    const body = JSON.stringify({ prompt: "merge these pdf files" })
    for (const contentType of [undefined, "text/plain", "application/x-www-form-urlencoded", "application/jsonx"]) {
      const response = await rawRequest(`${server.url}/skills/arm`, {
        method: "POST",
        headers: { authorization: `Bearer ${TOKEN}`, ...(contentType === undefined ? {} : { "content-type": contentType }) },
        body
      })
      expect({ contentType, status: response.status }).toEqual({ contentType, status: 415 })
      expect(JSON.parse(response.body)).toMatchObject({ _tag: "UnsupportedMediaType", contentType: contentType ?? null, accepted: ["application/json"] })
    }
    const accepted = await rawRequest(`${server.url}/skills/arm`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "Application/JSON; charset=utf-8" },
      body
    })
    expect(accepted.status).toBe(200)
  })

  it("are in the OpenAPI document: every operation with a body lists the 413 and 415 bodies", () => {
    const document = JSON.parse(openApiText()) as {
      readonly paths: Record<string, Record<string, { readonly requestBody?: unknown; readonly responses: Record<string, unknown> }>>
    }
    const withBody = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).filter(([, operation]) => operation.requestBody !== undefined).map(([method, operation]) => ({ path, method, operation }))
    )
    expect(withBody.length).toBeGreaterThan(10)
    for (const { path, method, operation } of withBody) {
      expect({ path, method, statuses: Object.keys(operation.responses) }).toEqual({ path, method, statuses: expect.arrayContaining(["413", "415"]) })
    }
  })

  it("that break their Schema get a 400 listing every issue, an unknown field among them", async () => {
    const response = await rawRequest(`${server.url}/goals/set`, {
      method: "POST",
      headers: { ...json, authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({ objective: " ", criteria: "none", extra: 1 })
    })
    expect(response.status).toBe(400)
    const paths = (JSON.parse(response.body) as { readonly errors: ReadonlyArray<{ readonly path: ReadonlyArray<string> }> }).errors.map(
      (issue) => issue.path.join(".")
    )
    expect(paths.toSorted()).toEqual(["payload.criteria", "payload.extra", "payload.objective"])
  })
})

describe("cross-origin", () => {
  it("sends no CORS headers, not even to a preflight", async () => {
    const origin = { origin: "https://evil.example" }
    const responses = [
      await rawRequest(`${server.url}/health`, { headers: origin }),
      await rawRequest(`${server.url}/skills`, { headers: { ...origin, authorization: `Bearer ${TOKEN}` } }),
      await rawRequest(`${server.url}/skills/arm`, {
        method: "OPTIONS",
        headers: { ...origin, "access-control-request-method": "POST", "access-control-request-headers": "authorization" }
      })
    ]
    for (const response of responses) {
      expect(Object.keys(response.headers).filter((name) => name.startsWith("access-control-"))).toEqual([])
    }
  })
})
