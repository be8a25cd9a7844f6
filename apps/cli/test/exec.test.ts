import { execFile } from "node:child_process"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { armory } from "./support/armory.js"

const examples = join(import.meta.dirname, "..", "..", "..", "examples", "skills")

/** Runs the built CLI with `input` on its stdin (the shared helper does not pipe stdin). */
const armoryWithStdin = (args: ReadonlyArray<string>, input: string): Promise<{ code: number; stdout: string }> =>
  new Promise((resolve) => {
    const child = execFile(process.execPath, [join(import.meta.dirname, "..", "dist", "bin.js"), ...args], (error, stdout) =>
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout })
    )
    child.stdin?.end(input)
  })

const script = (code: string) => {
  const file = join(mkdtempSync(join(tmpdir(), "armory-cli-exec-")), "code.js")
  writeFileSync(file, code)
  return file
}

describe("armory exec", () => {
  it("runs code with channel, page and skills bound, from the bundled CLI", async () => {
    const file = script(`
      console.log("starting")
      await channel.send({ text: "hello from the sandbox" })
      const names = (await skills.list()).map((skill) => skill.name)
      const armed = (await skills.arm({ prompt: "summarise this pdf" })).map((skill) => skill.name)
      let failure
      try { await page.text() } catch (e) { failure = { tag: e._tag, object: e.object, missing: e.missing } }
      return { id: await channel.id(), names, armed, failure }
    `)
    const run = await armory(["exec", file, "--json", "--dir", examples])
    expect(run.code).toBe(0)
    const result = JSON.parse(run.stdout)
    expect(result.status).toBe("completed")
    expect(result.result.id).toBe("armory-exec")
    expect(result.result.names).toContain("pdf-tools")
    expect(result.result.armed).toContain("pdf-tools")
    expect(result.result.failure).toEqual({
      tag: "DomainUnavailableError",
      object: "page",
      missing: "no browser provider was chosen: pass --provider or set ARMORY_BROWSER_PROVIDER"
    })
    expect(result.logs).toEqual(["[log] starting"])
    expect(result.channel).toEqual({ id: "armory-exec", messages: ["hello from the sandbox"] })
    expect(result.calls.map((call: { path: string }) => call.path)).toEqual([
      "channel.send",
      "skills.list",
      "skills.arm",
      "page.text",
      "channel.id"
    ])
  })

  it("reads the code from stdin with -, prints channel messages and exits 1 when the code fails", async () => {
    const run = await armoryWithStdin(
      ["exec", "-", "--dir", examples],
      "await channel.send({ text: 'before' }); await page.navigate({ url: 'https://example.com' })"
    )
    expect(run.code).toBe(1)
    expect(run.stdout).toContain("[channel] before")
    expect(run.stdout).toContain("status: error")
    expect(run.stdout).toContain("error: DomainUnavailableError: page is unavailable: no browser provider was chosen")
  })

  it("binds only the chosen globals and names the real ones on a ReferenceError", async () => {
    const run = await armory(["exec", script("return await page.url()"), "--globals", "channel", "--json", "--dir", examples])
    expect(run.code).toBe(1)
    const result = JSON.parse(run.stdout)
    expect(result.error._tag).toBe("ReferenceError")
    expect(result.error.message).toContain("The only globals are `tools`, `channel` and the standard JavaScript builtins")
  })

  it("stops a spinning script at --timeout", async () => {
    const run = await armory(["exec", script("while (true) {}"), "--timeout", "200", "--json", "--dir", examples])
    expect(run.code).toBe(1)
    expect(JSON.parse(run.stdout)).toMatchObject({ status: "timeout", error: { _tag: "Timeout" } })
  })

  it("refuses a global that is not a namespace as a usage error", async () => {
    const run = await armory(["exec", script("return 1"), "--globals", "notes", "--dir", examples])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('invalid global "notes"')
  })

  it("binds goals over the goal store and hands the guest a typed GateRefused with its unmet list", async () => {
    const root = join(mkdtempSync(join(tmpdir(), "armory-cli-goals-")), "goals")
    const file = script(`
      const goal = await goals.set({ objective: "ship login" })
      const criterion = await goals.addCriterion({ scenario: "a user logs in", qaChannel: "http", testRef: "test/login.test.ts" })
      try {
        await goals.complete({})
        return { completed: true }
      } catch (e) {
        return { goalId: goal.id, criterionId: criterion.id, tag: e._tag, unmet: e.unmet }
      }
    `)
    const run = await armory(["exec", file, "--json", "--dir", examples, "--goals-root", root, "--session-id", "exec"])
    expect(run.code).toBe(0)
    const result = JSON.parse(run.stdout).result
    expect(result.tag).toBe("GateRefused")
    expect(result.unmet).toEqual([
      expect.objectContaining({
        kind: "criterion",
        criterionId: result.criterionId,
        owes: expect.arrayContaining(["pass", "green", "scenario"])
      })
    ])
    const status = await armory(["goal", "status", "--json", "--root", root, "--session-id", "exec"])
    expect(JSON.parse(status.stdout)).toMatchObject({ goal: { id: result.goalId, objective: "ship login", status: "active" } })
  })
})

describe("armory instructions", () => {
  it("prints the declarations and the same globals exec binds", async () => {
    const run = await armory(["instructions", "--dir", examples])
    expect(run.code).toBe(0)
    expect(run.stdout).toContain("The only globals are `tools`, `skills`, `goals`, `channel`, `page` and the standard JavaScript builtins")
    expect(run.stdout).toContain("declare const page: typeof tools.page")
    expect(run.stdout).toContain("declare const goals: typeof tools.goals")
    expect(run.stdout).toContain("send(input: {\n      text: string\n    }): Promise<null>")
    expect(run.stdout).toContain("text(input?: {")
  })

  it("describes the snapshot-then-act loop when page is bound, and not without it", async () => {
    const run = await armory(["instructions", "--dir", examples])
    expect(run.stdout).toContain("Driving `page`: a loop of snapshot, then one action, then a new snapshot.")
    expect(run.stdout).toContain("fails with StaleHandleError: never retry it")
    expect(run.stdout).toContain("snapshot(input?: {")
    expect(run.stdout).toContain("text(selector: string): Promise<string>")
    const without = await armory(["instructions", "--dir", examples, "--globals", "skills,goals"])
    expect(without.code).toBe(0)
    expect(without.stdout).not.toContain("Driving `page`")
  })

  it("never tells the model about force: the goals tools cannot change a complete goal", async () => {
    const run = await armory(["instructions", "--dir", examples])
    expect(run.stdout).toContain("complete(input")
    expect(run.stdout).not.toMatch(/force/i)
  })
})
