import { Effect } from "effect"
import { FetchHttpClient } from "effect/http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import packageJson from "../package.json" with { type: "json" }
import { Api, API_VERSION, openApiText } from "@armory/api"
import { createClient } from "@armory/client"
import { makeArmoryClient } from "@armory/client/effect"
import { type RunningServer, startServer, TOKEN } from "./support/server.js"

let server: RunningServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())

const runEffect = <A, E>(effect: Effect.Effect<A, E, never>) => Effect.runPromise(effect)

const effectClient = () => makeArmoryClient({ baseUrl: server.url, token: TOKEN }).pipe(Effect.provide(FetchHttpClient.layer))

describe("the generated fetch client against a real server", () => {
  it("loads the example skills with the full load report, and arms by prompt and URL", async () => {
    const client = createClient({ baseUrl: server.url, token: TOKEN })
    const list = await client.GET("/skills")
    expect(list.response.status).toBe(200)
    const names = list.data?.skills.map((skill) => skill.name) ?? []
    expect(names).toContain("browser-drive")
    expect(list.data?.dropped.map((entry) => entry.file).join("\n")).toContain("broken-frontmatter")

    const armed = await client.POST("/skills/arm", { body: { prompt: "open the web page and click the button" } })
    expect(armed.response.status).toBe(200)
    expect(armed.data?.find((entry) => entry.name === "browser-drive")?.keywords).toEqual(
      expect.arrayContaining(["click", "web page"])
    )
    const nothing = await client.POST("/skills/arm", { body: { prompt: "zzz" } })
    expect(nothing.data).toEqual([])
  })

  it("probes the browser driver and answers health without a token", async () => {
    const anonymous = createClient({ baseUrl: server.url })
    const health = await anonymous.GET("/health")
    expect(health.data).toEqual({ status: "ok", version: packageJson.version, api: API_VERSION })
    const client = createClient({ baseUrl: server.url, token: TOKEN })
    const probe = await client.GET("/capabilities/probe", { params: { query: { driver: "agent-browser" } } })
    expect(probe.response.status).toBe(200)
    expect(["available", "unavailable", "unverified-identity"]).toContain(probe.data?.status)
    expect(probe.data?.status === "available").toBe(probe.data?.blocker === null)
  })

  it("reports on /health the version its host gives it", async () => {
    const hosted = await startServer({ version: "7.8.9-host" })
    try {
      expect((await createClient({ baseUrl: hosted.url }).GET("/health")).data).toEqual({ status: "ok", version: "7.8.9-host", api: API_VERSION })
    } finally {
      await hosted.close()
    }
  })

  it("executes code with the host's tools and returns what it posted to the channel", async () => {
    const client = createClient({ baseUrl: server.url, token: TOKEN })
    const run = await client.POST("/codemode/execute", {
      body: {
        code:
          'const armed = (await skills.arm({ prompt: "merge these pdf files" })).map((skill) => skill.name); await channel.send({ text: armed.join(",") }); return armed'
      }
    })
    expect(run.data).toMatchObject({
      status: "completed",
      result: ["pdf-tools"],
      calls: [
        { path: "skills.arm", status: "ok" },
        { path: "channel.send", status: "ok" }
      ],
      channel: { id: "armory-serve", messages: ["pdf-tools"] }
    })
    const refused = await client.POST("/codemode/execute", { body: { code: "return 1", globals: ["Math"] } })
    expect(refused.response.status).toBe(422)
    expect(refused.error).toMatchObject({ _tag: "InvalidGlobals", name: "Math" })
  })

  it("reports a bad request as a 400 problem with the Schema's reason", async () => {
    const client = createClient({ baseUrl: server.url, token: TOKEN })
    const bad = await client.POST("/codemode/execute", { body: { code: "return 1", timeoutMs: 0 } })
    expect(bad.response.status).toBe(400)
    expect(bad.error).toMatchObject({ status: 400, errors: [{ path: ["payload", "timeoutMs"] }] })
  })
})

describe("the Effect client derived from the contract against a real server", () => {
  it("calls every group and decodes typed errors", async () => {
    const result = await runEffect(
      Effect.gen(function* () {
        const client = yield* effectClient()
        const health = yield* client.health.health()
        const report = yield* client.skills.list()
        const armed = yield* client.skills.arm({ payload: { prompt: "take a screenshot of the page" } })
        const probe = yield* client.capabilities.probe({ query: {} })
        const run = yield* client.codemode.execute({ payload: { code: 'await channel.send({ text: "ping" }); return 2 + 2' } })
        const invalid = yield* client.codemode.execute({ payload: { code: "return 1", globals: ["1x"] } }).pipe(Effect.flip)
        return { health, names: report.skills.map((skill) => skill.name), armed, probe, run, invalid }
      })
    )
    expect(result.health.status).toBe("ok")
    expect(result.names).toContain("browser-drive")
    expect(result.armed.map((entry) => entry.name)).toContain("browser-drive")
    expect(result.probe.detail.length).toBeGreaterThan(0)
    expect(result.run).toMatchObject({ status: "completed", result: 4, channel: { messages: ["ping"] } })
    expect(result.invalid).toMatchObject({ _tag: "InvalidGlobals", name: "1x" })
  })

  it("fails with the typed Unauthorized error when the token is wrong", async () => {
    const error = await runEffect(
      makeArmoryClient({ baseUrl: server.url, token: "wrong" }).pipe(
        Effect.flatMap((client) => client.skills.list()),
        Effect.flip,
        Effect.provide(FetchHttpClient.layer)
      )
    )
    expect(error).toMatchObject({ _tag: "Unauthorized" })
  })
})

describe("exposes every standard HTTP API group", () => {
  const document = JSON.parse(openApiText()) as {
    readonly paths: Record<string, Record<string, { readonly operationId: string }>>
  }
  const operations = Object.values(Api.groups).flatMap((group) =>
    Object.values(group.endpoints).map((endpoint) => ({
      group: group.identifier,
      endpoint: endpoint.identifier,
      method: endpoint.method.toLowerCase(),
      path: endpoint.path
    }))
  )

  it("covers the groups whose packages exist", () => {
    expect(operations.map(({ group }) => group)).toEqual(
      expect.arrayContaining(["health", "skills", "goals", "capabilities", "browser", "codemode"])
    )
  })

  it("documents each operation in openapi.json and derives an Effect client method for it", async () => {
    const client = await runEffect(effectClient())
    for (const { group, endpoint, method, path } of operations) {
      expect(document.paths[path]?.[method]?.operationId).toBe(`${group}.${endpoint}`)
      const methods = (client as unknown as Record<string, Record<string, unknown>>)[group]
      expect(typeof methods?.[endpoint]).toBe("function")
    }
  })

  it("answers each operation with a success through the generated fetch client", async () => {
    const client = createClient({ baseUrl: server.url, token: TOKEN })
    // The goal calls run in this order, each leaving the state the next one needs to succeed.
    const query = { sessionId: "every-operation" }
    const criterionId = "c1"
    const calls: Record<string, () => Promise<{ readonly response: Response }>> = {
      "goals.set": () => client.POST("/goals/set", { params: { query }, body: { objective: "cover every route" } }),
      "goals.addCriterion": () =>
        client.POST("/goals/criteria", { params: { query }, body: { scenario: "it works", qaChannel: "cli", testRef: "t.ts" } }),
      "goals.addEvidence": () =>
        client.POST("/goals/evidence", { params: { query }, body: { criterionId, kind: "green", ref: "ci" } }),
      "goals.setCriterionStatus": () =>
        client.POST("/goals/criterion-status", { params: { query }, body: { criterionId, status: "pass" } }),
      "goals.steer": () =>
        client.POST("/goals/steer", {
          params: { query },
          body: { directive: "note the flaky CI", kind: "annotate", evidence: "ci log", rationale: "context for reviewers" }
        }),
      "goals.checkpoint": () => client.POST("/goals/checkpoint", { params: { query }, body: { summary: "halfway" } }),
      "goals.addBlocker": () => client.POST("/goals/blockers", { params: { query }, body: { detail: "review" } }),
      "goals.resolveBlocker": () => client.POST("/goals/blockers/resolve", { params: { query }, body: { blockerId: "b1" } }),
      "goals.setGoalStatus": () => client.POST("/goals/status", { params: { query }, body: { status: "active" } }),
      "goals.status": () => client.GET("/goals/status", { params: { query } }),
      "goals.snapshot": () => client.GET("/goals/snapshot", { params: { query } }),
      "goals.sessions": () => client.GET("/goals/sessions"),
      "goals.complete": async () => {
        await client.POST("/goals/evidence", { params: { query }, body: { criterionId, kind: "scenario", ref: "run" } })
        return client.POST("/goals/complete", { params: { query }, body: {} })
      },
      "browser.providers": () => client.GET("/browser/providers"),
      "health.health": () => client.GET("/health"),
      "skills.list": () => client.GET("/skills"),
      "skills.arm": () => client.POST("/skills/arm", { body: { prompt: "pdf", paths: ["a.md"], url: "https://example.com" } }),
      "capabilities.probe": () => client.GET("/capabilities/probe"),
      "codemode.execute": () => client.POST("/codemode/execute", { body: { code: "return null" } })
    }
    expect(Object.keys(calls).toSorted()).toEqual(operations.map(({ group, endpoint }) => `${group}.${endpoint}`).toSorted())
    for (const [operation, call] of Object.entries(calls)) {
      expect({ operation, status: (await call()).response.status }).toEqual({ operation, status: 200 })
    }
  })
})
