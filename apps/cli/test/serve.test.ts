import { mkdtempSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createClient } from "@armory/client"
import { makeArmoryClient } from "@armory/client/effect"
import { CHROMIUM_FLAGS, chromiumExecutable, describeRequiring } from "@armory/config/test-components"
import { NodeServices } from "@effect/platform-node"
import { Effect, Exit, Layer, ManagedRuntime, Scope } from "effect"
import { FetchHttpClient } from "effect/http"
import { type Browser, chromium } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ServeSettings, serveSettings, startArmoryServer } from "../src/Serve.js"

const EXAMPLES = join(import.meta.dirname, "..", "..", "..", "examples", "skills")

const settings: ServeSettings = { host: "127.0.0.1", port: 0, token: "serve-test-token", tokenSource: "env", dirs: [EXAMPLES] }

const runtime = ManagedRuntime.make(Layer.mergeAll(NodeServices.layer, FetchHttpClient.layer))
let scope: Scope.Closeable
let url: string

beforeAll(async () => {
  scope = await runtime.runPromise(Scope.make())
  url = await runtime.runPromise(startArmoryServer(settings).pipe(Scope.provide(scope)))
})
afterAll(async () => {
  await runtime.runPromise(Scope.close(scope, Exit.void))
  await runtime.dispose()
})

describe("armory serve's server", () => {
  it("runs code mode with the same skills and channel globals as armory exec (fetch client)", async () => {
    const client = createClient({ baseUrl: url, token: settings.token })
    const run = await client.POST("/codemode/execute", {
      body: {
        code:
          "const names = (await skills.list()).map((skill) => skill.name)\n" +
          'const armed = (await skills.arm({ prompt: "summarise this pdf" })).map((skill) => skill.name)\n' +
          'await channel.send({ text: `loaded ${names.length}` })\n' +
          "return { names, armed, id: await channel.id() }"
      }
    })
    expect(run.response.status).toBe(200)
    expect(run.data?.status).toBe("completed")
    const result = run.data?.result as { names: Array<string>; armed: Array<string>; id: string }
    expect(result.names).toContain("pdf-tools")
    expect(result.armed).toContain("pdf-tools")
    expect(result.id).toBe("armory-serve")
    expect(run.data?.channel.messages).toEqual([`loaded ${result.names.length}`])
  })

  it("answers the Effect client, and page reports that no browser is connected", async () => {
    const run = await runtime.runPromise(
      Effect.gen(function* () {
        const client = yield* makeArmoryClient({ baseUrl: url, token: settings.token })
        return yield* client.codemode.execute({
          payload: { code: "try { await page.url() } catch (error) { return error._tag + ': ' + error.object }" }
        })
      })
    )
    expect(run).toMatchObject({ status: "completed", result: "DomainUnavailableError: page" })
  })
})

describe("armory serve's settings", () => {
  const flags: Parameters<typeof serveSettings>[0] = {
    host: "127.0.0.1",
    port: 0,
    tokenFile: undefined,
    allowRemote: false,
    dirs: [],
    envToken: undefined
  }
  const settle = (overrides: Partial<Parameters<typeof serveSettings>[0]>) =>
    Effect.runPromise(Effect.result(serveSettings({ ...flags, ...overrides })))

  it("generates a token unless one comes from --token-file or ARMORY_TOKEN", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "armory-token-")), "token")
    writeFileSync(file, "from-file\n")
    const generated = await settle({})
    const fromFile = await settle({ tokenFile: file, envToken: "from-env" })
    const fromEnv = await settle({ envToken: "from-env" })
    expect(generated._tag === "Success" && generated.success.token.length >= 32).toBe(true)
    expect(fromFile).toMatchObject({ success: { token: "from-file", tokenSource: "file" } })
    expect(fromEnv).toMatchObject({ success: { token: "from-env", tokenSource: "env" } })
  })

  it("refuses a non-loopback host unless --allow-remote comes with a chosen token", async () => {
    expect(await settle({ host: "0.0.0.0" })).toMatchObject({ _tag: "Failure" })
    expect(await settle({ host: "0.0.0.0", allowRemote: true })).toMatchObject({ _tag: "Failure" })
    expect(await settle({ host: "0.0.0.0", allowRemote: true, envToken: "chosen" })).toMatchObject({ _tag: "Success" })
    expect(await settle({ host: "localhost" })).toMatchObject({ _tag: "Success" })
    expect(await settle({ port: 70_000 })).toMatchObject({ _tag: "Failure" })
  })
})

describeRequiring("browser", "/docs in a real Chromium", () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: chromiumExecutable(),
      args: [...CHROMIUM_FLAGS]
    })
  })
  afterAll(() => browser?.close())

  it("renders the OpenAPI reference offline, with every group, and saves a screenshot", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    const origins = new Set<string>()
    page.on("request", (request) => origins.add(new URL(request.url()).origin))
    // Any request leaving the server would fail here: the page must not need the network.
    await page.route((target) => target.origin !== url, (route) => route.abort())
    await page.goto(`${url}/docs`, { waitUntil: "load" })
    for (const group of ["health", "skills", "capabilities", "codemode"]) {
      await page.getByText(group, { exact: true }).first().waitFor({ state: "visible", timeout: 20_000 })
    }
    const screenshot = join(mkdtempSync(join(tmpdir(), "armory-docs-")), "docs.png")
    await page.screenshot({ path: screenshot, fullPage: false })
    expect(statSync(screenshot).size).toBeGreaterThan(10_000)
    expect([...origins].filter((origin) => origin !== url && !origin.startsWith("data:") && origin !== "null")).toEqual([])
    await page.close()
  })
})
