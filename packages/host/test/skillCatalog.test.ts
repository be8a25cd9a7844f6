import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Effect, Logger } from "effect"
import { describe, expect, it } from "vitest"
import { makeSkillCatalog, type SkillCatalogShape } from "../src/index.js"

const skill = (name: string, keyword: string) =>
  `---\nname: ${name}\ndescription: Handles ${keyword} work.\nautoInject:\n  keywords: [${keyword}]\n---\n# ${name}\n`

const writeSkill = (root: string, name: string, text: string) => {
  mkdirSync(join(root, name), { recursive: true })
  writeFileSync(join(root, name, "SKILL.md"), text)
}

/** Runs `body` with a catalog over `roots`, collecting what the catalog logs at warning level. */
const withCatalog = <A>(
  roots: Parameters<typeof makeSkillCatalog>[0],
  body: (catalog: SkillCatalogShape, warnings: ReadonlyArray<string>) => Promise<A>
): Promise<A> => {
  const warnings: Array<string> = []
  const capture = Logger.make(({ logLevel, message }) => {
    if (logLevel === "Warn") warnings.push((Array.isArray(message) ? message : [message]).map(String).join(" "))
  })
  return Effect.runPromise(
    Effect.gen(function* () {
      const catalog = yield* makeSkillCatalog(roots, { settle: "20 millis", recheck: "50 millis" })
      return yield* Effect.promise(() => body(catalog, warnings))
    }).pipe(Effect.scoped, Effect.provide([NodeServices.layer, Logger.layer([capture])]))
  )
}

/** Polls `read` until `done` holds (the catalog reloads in the background); fails after 5 s with the last value. */
const eventually = async <A>(read: () => Promise<A>, done: (value: A) => boolean): Promise<A> => {
  const deadline = Date.now() + 5000
  for (;;) {
    const value = await read()
    if (done(value) || Date.now() > deadline) return value
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

const names = (catalog: SkillCatalogShape) => Effect.runPromise(Effect.map(catalog.report, (report) => report.skills.map((s) => s.name)))
const armed = (catalog: SkillCatalogShape, prompt: string) =>
  Effect.runPromise(Effect.map(catalog.arm({ prompt }), (skills) => skills.map((s) => s.name)))

describe("the skill catalog", () => {
  it("serves a skill edited, added or removed on disk without being asked to reload", async () => {
    const root = mkdtempSync(join(tmpdir(), "armory-catalog-"))
    writeSkill(root, "pdf-tools", skill("pdf-tools", "pdf"))
    await withCatalog([root], async (catalog) => {
      expect(await armed(catalog, "merge this pdf")).toEqual(["pdf-tools"])
      writeSkill(root, "pdf-tools", skill("pdf-tools", "invoice"))
      expect(await eventually(() => armed(catalog, "an invoice"), (value) => value.length > 0)).toEqual(["pdf-tools"])
      expect(await armed(catalog, "merge this pdf")).toEqual([])
      writeSkill(root, "csv-tools", skill("csv-tools", "csv"))
      expect(await eventually(() => names(catalog), (value) => value.length === 2)).toEqual(["csv-tools", "pdf-tools"])
      rmSync(join(root, "pdf-tools"), { recursive: true })
      expect(await eventually(() => names(catalog), (value) => value.length === 1)).toEqual(["csv-tools"])
    })
  })

  it("loads a root that appears after it started", async () => {
    const parent = mkdtempSync(join(tmpdir(), "armory-catalog-"))
    const root = join(parent, "skills")
    await withCatalog([{ path: root, optional: true }], async (catalog) => {
      expect(await names(catalog)).toEqual([])
      writeSkill(root, "pdf-tools", skill("pdf-tools", "pdf"))
      expect(await eventually(() => names(catalog), (value) => value.length === 1)).toEqual(["pdf-tools"])
      writeSkill(root, "pdf-tools", skill("pdf-tools", "invoice"))
      expect(await eventually(() => armed(catalog, "an invoice"), (value) => value.length > 0)).toEqual(["pdf-tools"])
    })
  })

  it("logs a bad document once per change, however often it is asked", async () => {
    const root = mkdtempSync(join(tmpdir(), "armory-catalog-"))
    writeSkill(root, "pdf-tools", skill("pdf-tools", "pdf"))
    writeSkill(root, "broken", "---\nname: broken\nslash: yes please\n---\n")
    await withCatalog([root], async (catalog, warnings) => {
      for (let index = 0; index < 50; index++) await armed(catalog, "merge this pdf")
      expect(warnings).toHaveLength(1)
      expect(warnings[0]).toContain("broken")
      // A change elsewhere reloads the roots; the same bad document is not news.
      writeSkill(root, "csv-tools", skill("csv-tools", "csv"))
      await eventually(() => names(catalog), (value) => value.length === 2)
      expect(warnings).toHaveLength(1)
      writeSkill(root, "broken", "---\nname: broken\ndescription: [unclosed\n---\n")
      await eventually(async () => warnings.length, (count) => count === 2)
      expect(warnings).toHaveLength(2)
      expect(warnings[1]).toContain("broken")
    })
  })

  it("stops watching when its scope closes", async () => {
    const root = mkdtempSync(join(tmpdir(), "armory-catalog-"))
    writeSkill(root, "pdf-tools", skill("pdf-tools", "pdf"))
    const catalog = await withCatalog([root], async (opened) => opened)
    writeSkill(root, "csv-tools", skill("csv-tools", "csv"))
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(await names(catalog)).toEqual(["pdf-tools"])
  })
})
