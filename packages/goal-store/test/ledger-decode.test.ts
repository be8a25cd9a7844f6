import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { LEDGER_SCHEMA, type LedgerEvent, MalformedState, openGoalStore } from "@armory/goal-store"
import { decodeLedgerLine, encodeLedgerLine, LEDGER_EVENT_BY_KIND } from "@armory/goal-store/backend"
import { Result, Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { rejection, tempRoot } from "./support/temp.js"

type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [key: string]: Json }

const at = "2026-01-01T00:00:00.000Z"
const criterion = { id: "c1", scenario: "a user logs in", qaChannel: "browser", testRef: "e2e/login.spec.ts" } as const

/** One valid event of every kind, with and without each optional field. */
const valid: ReadonlyArray<LedgerEvent> = [
  { schema: LEDGER_SCHEMA, seq: 1, at, kind: "goal_created", goal: { id: "g1", objective: "Ship login", criteria: [criterion] } },
  { schema: LEDGER_SCHEMA, seq: 2, at, kind: "criterion_added", forced: true, criterion: { ...criterion, id: "c2" } },
  { schema: LEDGER_SCHEMA, seq: 3, at, kind: "criterion_status", criterionId: "c1", status: "fail" },
  { schema: LEDGER_SCHEMA, seq: 4, at, kind: "criterion_retry", criterionId: "c1", status: "in_progress", attempt: 2 },
  {
    schema: LEDGER_SCHEMA,
    seq: 5,
    at,
    kind: "evidence_added",
    evidence: { id: "e1", criterionId: "c1", kind: "green", ref: "ci/run/1", detail: "", attempt: 2 }
  },
  { schema: LEDGER_SCHEMA, seq: 6, at, kind: "evidence_added", evidence: { id: "e2", criterionId: "c1", kind: "red", ref: "r", attempt: 1 } },
  { schema: LEDGER_SCHEMA, seq: 7, at, kind: "checkpoint", checkpoint: { id: "k1", summary: "half way", activeCriterion: "c1" } },
  { schema: LEDGER_SCHEMA, seq: 8, at, kind: "checkpoint", forced: false, checkpoint: { id: "k2", summary: "on" } },
  {
    schema: LEDGER_SCHEMA,
    seq: 9,
    at,
    kind: "steer",
    steering: { id: "s1", kind: "add_criterion", directive: "cover expiry", evidence: "bug", rationale: "broke", criterionId: "c3" },
    criterion: { ...criterion, id: "c3" }
  },
  {
    schema: LEDGER_SCHEMA,
    seq: 10,
    at,
    kind: "steer",
    steering: { id: "s2", kind: "annotate", directive: "note", evidence: "e", rationale: "r" }
  },
  {
    schema: LEDGER_SCHEMA,
    seq: 11,
    at,
    kind: "steering_rejected",
    directive: "skip tests",
    steeringKind: "redirect",
    evidence: "",
    rationale: "",
    reason: "weakens"
  },
  { schema: LEDGER_SCHEMA, seq: 12, at, kind: "review_blocker", blocker: { id: "b1", detail: "security review" } },
  { schema: LEDGER_SCHEMA, seq: 13, at, kind: "review_blocker_resolved", blockerId: "b1" },
  { schema: LEDGER_SCHEMA, seq: 14, at, kind: "goal_status", status: "needs_user_decision" },
  {
    schema: LEDGER_SCHEMA,
    seq: 15,
    at,
    kind: "goal_completed",
    forced: true,
    unmet: [
      { kind: "criterion", criterionId: "c1", scenario: "s", status: "fail", attempt: 2, owes: ["pass", "scenario"] },
      { kind: "blocker", blockerId: "b2", detail: "d" },
      { kind: "goal", status: "blocked", reason: "stalled" }
    ]
  },
  { schema: LEDGER_SCHEMA, seq: 16, at, kind: "goal_completed", unmet: [] }
]

/** What the event Schema alone says about a line: the definition the fast path must agree with. */
const bySchema = (value: unknown): Result.Result<unknown, unknown> => {
  const kind = (value as { readonly kind?: unknown } | null)?.kind
  const schema = typeof kind === "string" ? LEDGER_EVENT_BY_KIND[kind as keyof typeof LEDGER_EVENT_BY_KIND] : undefined
  if (schema === undefined || (value as { readonly schema?: unknown }).schema !== LEDGER_SCHEMA) return Result.fail("not an event")
  return Schema.decodeUnknownResult(schema as Schema.Codec<unknown, unknown>)(value)
}

const outcome = (result: Result.Result<unknown, unknown>) => (Result.isSuccess(result) ? { decoded: result.success } : "refused")

const leafPaths = (value: Json, path: ReadonlyArray<string | number> = []): Array<ReadonlyArray<string | number>> => {
  if (value === null || typeof value !== "object") return [path]
  if (Array.isArray(value)) return [path, ...value.flatMap((item: Json, index: number) => leafPaths(item, [...path, index]))]
  return [path, ...Object.entries(value).flatMap(([key, item]) => leafPaths(item, [...path, key]))]
}

const edit = (value: Json, path: ReadonlyArray<string | number>, change: (node: Json | undefined) => Json | undefined): Json => {
  const [head, ...rest] = path
  if (head === undefined) return change(value) ?? null
  if (Array.isArray(value)) return value.map((item: Json, index: number) => (index === head ? edit(item, rest, change) : item))
  const record = { ...(value as { readonly [key: string]: Json }) }
  if (rest.length === 0) {
    const next = change(record[head])
    if (next === undefined) delete record[head]
    else record[head] = next
    return record
  }
  record[head] = edit(record[head] ?? null, rest, change)
  return record
}

/** Values that test each check the fast path makes: wrong types, bad ids, blank text, unknown literals. */
const replacement = fc.constantFrom<Json | undefined>(
  undefined,
  null,
  0,
  1.5,
  -1,
  2 ** 60,
  "",
  " ",
  "../etc",
  "a".repeat(65),
  "ok",
  "c1",
  "done",
  "pass",
  "review_blocked",
  "complete",
  "criterion",
  true,
  [],
  {},
  { extra: 1 }
)

describe("decoding ledger lines", () => {
  it("decodes every valid event to itself", () => {
    for (const event of valid) {
      const decoded = decodeLedgerLine(encodeLedgerLine(event).trimEnd())
      expect(Result.isSuccess(decoded) ? decoded.success : decoded.failure).toEqual(event)
    }
  })

  it("agrees with the event Schema on 5,000 damaged events (fast-check)", () => {
    const damaged = fc
      .constantFrom(...valid)
      .chain((event) =>
        fc.tuple(
          fc.constant(event as unknown as Json),
          fc.constantFrom(...leafPaths(event as unknown as Json).filter((path) => path.length > 0)),
          replacement,
          fc.boolean()
        )
      )
      .map(([event, path, value, addKey]) =>
        addKey ? edit(event, path.slice(0, -1), (node) => ({ ...(node as object), [`x${String(path.at(-1))}`]: value ?? 1 })) : edit(event, path, () => value)
      )
    fc.assert(
      fc.property(damaged, (value) => {
        const line = JSON.stringify(value)
        const decoded = decodeLedgerLine(line)
        const reference = bySchema(JSON.parse(line))
        expect(outcome(decoded)).toEqual(outcome(reference))
      }),
      { numRuns: 5000 }
    )
  })
})

/** The encoding the ledger has always had: `JSON.stringify` of a copy with each object's keys inserted sorted. */
const sortedCopy = (_key: string, value: unknown): unknown => {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value
  const sorted: Record<string, unknown> = {}
  for (const key of Object.keys(value).toSorted()) sorted[key] = (value as Record<string, unknown>)[key]
  return sorted
}

describe("canonical encoding", () => {
  it("writes exactly what JSON.stringify writes of the value with sorted keys, on 2,000 values (fast-check)", () => {
    const value = fc
      .oneof(
        fc.jsonValue(),
        fc.dictionary(fc.oneof(fc.string(), fc.constantFrom("0", "1", "10", "9", "01", "-1", "4294967295", "4294967294")), fc.jsonValue()),
        fc.record({ skipped: fc.constant(undefined), kept: fc.jsonValue(), list: fc.array(fc.constantFrom(undefined, 1)) })
      )
      // An own `__proto__` key is not data the copy-by-assignment reference can hold.
      .filter((input) => !JSON.stringify(input).includes('"__proto__"'))
    fc.assert(
      fc.property(value, (input) => {
        expect(encodeLedgerLine(input as unknown as LedgerEvent)).toBe(`${JSON.stringify(input, sortedCopy)}\n`)
      }),
      { numRuns: 2000 }
    )
    const withToJson = { when: new Date(0), nested: { toJSON: () => ({ b: 1, a: 2 }) } }
    expect(encodeLedgerLine(withToJson as unknown as LedgerEvent)).toBe(`${JSON.stringify(withToJson, sortedCopy)}\n`)
  })
})

const writeLedger = (events: ReadonlyArray<unknown>, extra: ReadonlyArray<string> = []) => {
  const root = tempRoot()
  const lines = [...events.map((event) => JSON.stringify(event)), ...extra]
  writeFileSync(join(root, "ledger.jsonl"), lines.map((line) => `${line}\n`).join(""))
  return root
}

describe("opening a ledger that does not fold", () => {
  const created = valid[0] as LedgerEvent
  const unknownCriterion = { schema: LEDGER_SCHEMA, seq: 2, at, kind: "criterion_status", criterionId: "c9", status: "pass" }
  const next = { schema: LEDGER_SCHEMA, seq: 3, at, kind: "goal_status", status: "blocked" }

  it("names the first event that does not apply", async () => {
    const root = writeLedger([created, unknownCriterion, next])
    const error = await rejection(openGoalStore({ root }))
    expect(error).toBeInstanceOf(MalformedState)
    expect(error).toMatchObject({ file: join(root, "ledger.jsonl"), line: 2, reason: "unknown criterion c9" })
  })

  it("names a later line that does not decode before an earlier event that does not apply", async () => {
    const root = writeLedger([created, unknownCriterion, next], ["{not json"])
    expect(await rejection(openGoalStore({ root }))).toMatchObject({ _tag: "MalformedState", line: 4, reason: expect.stringMatching(/^not JSON/) })
    const gap = writeLedger([created, unknownCriterion, next, { ...next, seq: 5 }])
    expect(await rejection(openGoalStore({ root: gap }))).toMatchObject({ line: 4, reason: "sequence 5 does not follow 3" })
  })
})
