import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describeRequiring } from "@armory/config/test-components"
import { afterAll, beforeAll, expect, it } from "vitest"
import { type LaunchedChromium, launchChromium } from "../../../packages/browser-runtime/test/support/chromium.js"
import { type FixtureSite, startFixtureSite } from "../../../packages/browser-runtime/test/support/servers.js"
import { armory } from "./support/armory.js"

const examples = join(import.meta.dirname, "..", "..", "..", "examples", "skills")

const file = (name: string, contents: string) => {
  const path = join(mkdtempSync(join(tmpdir(), "armory-cli-browser-")), name)
  writeFileSync(path, contents)
  return path
}


describeRequiring("browser", "armory browser and exec against a real Chromium", () => {
  let chromium: LaunchedChromium
  let site: FixtureSite
  let env: NodeJS.ProcessEnv

  beforeAll(async () => {
    ;[chromium, site] = await Promise.all([launchChromium(), startFixtureSite()])
    env = {
      ARMORY_BROWSER_PROVIDER: "",
      ARMORY_BROWSEROS_CDP_URL: "http://127.0.0.1:1",
      ARMORY_ASIDE_COMMAND: "armory-no-such-aside",
      ARMORY_CHROME_CDP_URL: chromium.cdpUrl
    }
  })
  afterAll(async () => {
    await Promise.all([chromium?.kill(), site?.close()])
  })

  it("browser providers shows the auto order and each probe result", async () => {
    const run = await armory(["browser", "providers", "--json"], { env })
    expect(run.code).toBe(0)
    const report = JSON.parse(run.stdout)
    expect(report.selected).toBe("auto")
    expect(report.order).toEqual(["browseros", "aside", "chrome-cdp"])
    expect(report.providers.map((entry: { provider: string; status: string }) => `${entry.provider} ${entry.status}`)).toEqual([
      "browseros unavailable",
      "aside unavailable",
      "chrome-cdp available"
    ])
  })

  it("browser providers fails closed on an unknown ARMORY_BROWSER_PROVIDER", async () => {
    const run = await armory(["browser", "providers"], { env: { ...env, ARMORY_BROWSER_PROVIDER: "firefox" } })
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('unknown browser provider "firefox"')
  })

  it("browser run runs a job module on the fixture and prints the runJob result", async () => {
    const job = file(
      "job.mjs",
      `export const steps = [
        ({ page }) => page.locator("h1").innerText(),
        ({ page }) => page.locator("li.item").allInnerTexts()
      ]`
    )
    const before = site.requests("/plain")
    const run = await armory(["browser", "run", job, "--provider", "chrome-cdp", "--url", `${site.url}/plain`, "--json"], { env })
    expect(run.stderr).toBe("")
    expect(run.code).toBe(0)
    const result = JSON.parse(run.stdout)
    expect(result).toMatchObject({ status: "complete", results: ["Fixture page", ["alpha", "beta"]], cleanup: { verified: true, blocker: null } })
    expect(result.cleanup.items.map((item: { kind: string; removed: boolean }) => `${item.kind} ${item.removed}`)).toEqual(["page true", "context true"])
    expect(site.requests("/plain") - before).toBe(1)
  })

  it("browser run stops at the job's stop rule and exits 1", async () => {
    const job = file(
      "captcha.mjs",
      `export const stopOn = async ({ page, phase }) =>
        phase === "step" && (await page.locator("[data-armory-fixture=captcha]").count()) > 0 ? "CAPTCHA_DETECTED" : null
      export const steps = [({ page }) => page.goto(${JSON.stringify(`${site.url}/payment`)})]`
    )
    const run = await armory(["browser", "run", job, "--url", `${site.url}/captcha`, "--json"], { env })
    expect(run.code).toBe(1)
    expect(JSON.parse(run.stdout)).toMatchObject({ status: "stopped", stopReason: { code: "CAPTCHA_DETECTED" }, results: [] })
    expect(site.requests("/payment")).toBe(0)
  })

  const script = `
    await page.navigate({ url: ${JSON.stringify("FIXTURE")} })
    const heading = await page.text({ selector: "h1" })
    await page.click({ selector: "#go" })
    return { heading, out: await page.text({ selector: "#out" }), items: (await page.query("li.item")).nodes.map((node) => node.text) }
  `

  it("exec binds a real page when --provider connects: the script reads the fixture and clicks", async () => {
    const code = file("read.js", script.replace("FIXTURE", `${site.url}/plain`))
    const run = await armory(["exec", code, "--provider", "chrome-cdp", "--json", "--dir", examples], { env })
    expect(run.code).toBe(0)
    expect(JSON.parse(run.stdout).result).toEqual({ heading: "Fixture page", out: "clicked", items: ["alpha", "beta"] })
  })

  it("runs the README's snapshot-then-act loop through code mode and proves its cleanup", async () => {
    const readme = readFileSync(join(import.meta.dirname, "..", "README.md"), "utf8")
    const example = /```js\n\/\/ order\.js[^\n]*\n([\s\S]*?)```/.exec(readme)?.[1]
    if (example === undefined) throw new Error("the README has no order.js example")
    const code = file("order.js", example.replace("http://127.0.0.1:8080", site.url))
    const run = await armory(["exec", code, "--provider", "chrome-cdp", "--json", "--dir", examples], { env })
    expect(run.stderr).toBe("")
    expect(run.code).toBe(0)
    const result = JSON.parse(run.stdout)
    expect(result.result).toBe("Ordered l for Ada")
    expect(result.calls.map((call: { path: string }) => call.path)).toEqual([
      "page.navigate",
      "page.snapshot",
      "page.type",
      "page.select",
      "page.click",
      "page.waitFor",
      "page.text"
    ])
    expect(result.cleanup).toMatchObject({ verified: true, blocker: null })
  })

  it("exec hands a stale ref to the guest as StaleHandleError with its fields", async () => {
    const code = file(
      "stale.js",
      `await page.navigate(${JSON.stringify(`${site.url}/choices`)})
      const { id, tree } = await page.snapshot()
      const keep = /- button "Keep" \\[ref=(\\w+)\\]/.exec(tree)[1]
      await page.navigate(${JSON.stringify(`${site.url}/choices?again`)})
      try { await page.click({ ref: keep }) } catch (error) { return { tag: error._tag, ref: error.ref === keep, reason: error.reason, id } }`
    )
    const run = await armory(["exec", code, "--provider", "chrome-cdp", "--json", "--dir", examples], { env })
    expect(run.code).toBe(0)
    expect(JSON.parse(run.stdout).result).toEqual({ tag: "StaleHandleError", ref: true, reason: "the page navigated after snapshot s1", id: "s1" })
  })

  it("exec gives the same script DomainUnavailableError naming the provider error when there is no browser", async () => {
    const code = file("read.js", script.replace("FIXTURE", `${site.url}/plain`))
    const run = await armory(["exec", code, "--provider", "browseros", "--json", "--dir", examples], { env })
    expect(run.code).toBe(1)
    const result = JSON.parse(run.stdout)
    expect(result.error._tag).toBe("DomainUnavailableError")
    expect(result.error.message).toBe(
      "page is unavailable: browser provider browseros is unavailable at http://127.0.0.1:1: connect ECONNREFUSED 127.0.0.1:1"
    )
  })
})
