import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Layer, Logger } from "effect"
import fc from "fast-check"
import { stringify } from "yaml"
import { load } from "../src/index.js"
import { NodeLayer, temporaryDirectory, writeTree } from "./support.js"

const DOCUMENTS_PER_RUN = 250
const RUNS = 4

const anyValue = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(fc.string(), fc.integer())),
  fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.integer()))
)
// A small pool of valid names, so that clashes (and therefore shadowing) happen often.
const name = fc.oneof(fc.constantFrom("alpha", "beta", "gamma-1", "delta"), anyValue)
const description = fc.oneof(fc.string({ minLength: 1, maxLength: 60 }), anyValue)
const autoInject = fc.oneof(
  fc.record({ keywords: fc.array(fc.string()), url: fc.array(fc.string()) }, { requiredKeys: [] }),
  anyValue
)
const frontmatter = fc.record(
  { name, description, slash: fc.oneof(fc.boolean(), anyValue), autoInject, metadata: anyValue, extra: anyValue },
  { requiredKeys: ["name", "description"] }
)
const structured = fc.tuple(frontmatter, fc.string()).map(([data, body]) => `---\n${stringify(data)}---\n${body}`)
const mutated = fc
  .tuple(structured, fc.nat(), fc.string({ unit: "binary", maxLength: 8 }))
  .map(([text, at, noise]) => text.slice(0, at % (text.length + 1)) + noise + text.slice(at % (text.length + 1)))
const document = fc.oneof(
  structured,
  mutated,
  fc.string({ unit: "binary" }).map((text) => `---\n${text}\n---\n`),
  fc.uint8Array({ maxLength: 200 })
)

describe("load on random documents", () => {
  // Invariant: load never fails, and every SKILL.md written has exactly one disposition — loaded
  // (skills[].location), dropped (dropped[].file) or shadowed (shadowed[].file) — while
  // ignoredAutoInject only annotates loaded skills, and every shadowing winner is a loaded skill
  // with the same name.
  const seen = { skills: 0, dropped: 0, ignoredAutoInject: 0, shadowed: 0 }
  it.effect(
    `gives each of ${DOCUMENTS_PER_RUN * RUNS} documents exactly one disposition`,
    () =>
      Effect.promise(() =>
        fc.assert(
          fc.asyncProperty(fc.array(document, { minLength: DOCUMENTS_PER_RUN, maxLength: DOCUMENTS_PER_RUN }), async (documents) => {
            const root = temporaryDirectory()
            const files = documents.map((_, index) => join(root, `doc-${String(index).padStart(4, "0")}`, "SKILL.md"))
            writeTree(root, Object.fromEntries(documents.map((content, index) => [files[index]?.slice(root.length + 1), content])))
            const exit = await Effect.runPromiseExit(load([root]).pipe(Effect.provide(Layer.mergeAll(NodeLayer, Logger.layer([])))))
            expect(Exit.isSuccess(exit)).toBe(true)
            if (!Exit.isSuccess(exit)) return
            const report = exit.value
            seen.skills += report.skills.length
            seen.dropped += report.dropped.length
            seen.ignoredAutoInject += report.ignoredAutoInject.length
            seen.shadowed += report.shadowed.length
            const dispositions = [
              ...report.skills.map(({ location }) => location),
              ...report.dropped.map(({ file }) => file),
              ...report.shadowed.map(({ file }) => file)
            ]
            expect(dispositions.toSorted()).toEqual(files.toSorted())
            const loaded = new Map(report.skills.map((skill) => [skill.location, skill.name]))
            expect(new Set(loaded.values()).size).toBe(report.skills.length)
            for (const { file } of report.ignoredAutoInject) expect(loaded.has(file)).toBe(true)
            for (const { name: shadowedName, by } of report.shadowed) expect(loaded.get(by)).toBe(shadowedName)
          }),
          // Shrinking would re-write and re-load hundreds of files per step; the seed reproduces a failure.
          { numRuns: RUNS, seed: 20_251_130, endOnFailure: true }
        )
      ).pipe(
        // The generator must reach every disposition, or the invariant above is checked on too little.
        Effect.tap(() => Effect.sync(() => expect(Object.values(seen).every((count) => count > 0)).toBe(true)))
      ),
    120_000
  )
})
