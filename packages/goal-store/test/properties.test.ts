import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { MalformedState, openGoalStore } from "@armory/goal-store"
import fc from "fast-check"
import { beforeAll, describe, expect, it } from "vitest"
import { describeGoalStoreProperties } from "./support/behaviour.js"
import { fileHarness } from "./support/fileHarness.js"
import { snapshotText } from "./support/files.js"
import { readyGoal, rejection, sha256, tempRoot } from "./support/temp.js"

type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [key: string]: Json }

const leafPaths = (value: Json, path: ReadonlyArray<string | number> = []): Array<ReadonlyArray<string | number>> => {
  if (value === null || typeof value !== "object") return [path]
  if (Array.isArray(value)) return value.flatMap((item: Json, index: number) => leafPaths(item, [...path, index]))
  return Object.entries(value).flatMap(([key, item]) => leafPaths(item, [...path, key]))
}

const withLeaf = (value: Json, path: ReadonlyArray<string | number>, leaf: Json): Json => {
  const [head, ...rest] = path
  if (head === undefined) return leaf
  if (Array.isArray(value)) return value.map((item: Json, index: number) => (index === head ? withLeaf(item, rest, leaf) : item))
  const record = value as { readonly [key: string]: Json }
  return { ...record, [head]: withLeaf(record[head] ?? null, rest, leaf) }
}

/** A value of a type the leaf can never have in a valid snapshot. */
const wrongTypeFor = (leaf: Json): Json => (typeof leaf === "string" ? 42 : typeof leaf === "number" ? "42" : leaf === null ? 7 : "yes")

describe("malformed snapshots (fast-check)", () => {
  let root: string
  let valid: string
  beforeAll(async () => {
    root = tempRoot()
    const store = await readyGoal(root)
    await store.addBlocker({ detail: "review" })
    await store.checkpoint({ summary: "half way", activeCriterion: "c1" })
    valid = snapshotText(root)
  })

  it("rejects 1,000 malformed snapshots with MalformedState, leaving every byte as it was", async () => {
    const parsed = JSON.parse(valid) as Json
    const paths = leafPaths(parsed)
    const malformed = fc.oneof(
      fc.integer({ min: 0, max: valid.length - 2 }).map((end) => valid.slice(0, end)),
      fc.constantFrom(...paths).map((path) => JSON.stringify(withLeaf(parsed, path, wrongTypeFor(readLeaf(parsed, path))))),
      fc.string({ minLength: 1 }).filter((tail) => tail.trim().length > 0).map((tail) => `${valid.trimEnd()}${tail}`),
      fc.json().filter((json) => !json.includes('"armory.goal.snapshot/v1"')),
      fc
        .uint8Array({ minLength: 1, maxLength: 64 })
        // JSON whitespace before the object, or a byte order mark, leaves the snapshot valid.
        .filter((bytes) => bytes.some((byte) => ![0x09, 0x0a, 0x0d, 0x20].includes(byte)) && bytes[0] !== 0xef)
        .map((bytes) => Buffer.from(bytes).toString("latin1") + valid)
    )
    await fc.assert(
      fc.asyncProperty(malformed, async (text) => {
        const file = join(root, "goals.json")
        writeFileSync(file, text, "latin1")
        const before = sha256(file)
        const error = await rejection(openGoalStore({ root }))
        expect(error).toBeInstanceOf(MalformedState)
        expect((error as MalformedState).file).toBe(file)
        expect(sha256(file)).toBe(before)
      }),
      { numRuns: 1000 }
    )
    writeFileSync(join(root, "goals.json"), valid)
    await openGoalStore({ root })
  }, 120_000)
})

const readLeaf = (value: Json, path: ReadonlyArray<string | number>): Json =>
  path.reduce<Json>((node, key) => (node as { readonly [key: string]: Json })[key] ?? null, value)

describeGoalStoreProperties("file store", fileHarness)
