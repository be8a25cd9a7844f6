import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import {
  decodeLedgerJsonl,
  encodeLedgerJsonl,
  exportFileLedger,
  InvalidInput,
  LEDGER_SCHEMA,
  MalformedState,
  openGoalStore
} from "@armory/goal-store"
import { LEDGER_FILE } from "@armory/goal-store/backend"
import { Effect, Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { readyGoal, tempRoot } from "./support/temp.js"

const created = { schema: LEDGER_SCHEMA, seq: 1, at: "2026-01-01T00:00:00.000Z", kind: "goal_created", goal: { id: "g1", objective: "o", criteria: [] } }
const line = JSON.stringify(created)

const refusal = (text: string) => {
  const decoded = decodeLedgerJsonl(text)
  return Result.isFailure(decoded) ? decoded.failure.reason : "accepted"
}

describe("ledger JSON Lines", () => {
  it("round-trips an exported ledger, with or without the final newline, and with CRLF line ends", async () => {
    const root = tempRoot()
    await readyGoal(root)
    const events = await Effect.runPromise(exportFileLedger({ root }))
    const text = encodeLedgerJsonl(events)
    expect(Result.getOrThrow(decodeLedgerJsonl(text))).toEqual(events)
    expect(Result.getOrThrow(decodeLedgerJsonl(text.trimEnd()))).toEqual(events)
    expect(Result.getOrThrow(decodeLedgerJsonl(text.replaceAll("\n", "\r\n")))).toEqual(events)
    expect(Result.getOrThrow(decodeLedgerJsonl(""))).toEqual([])
  })

  it("names the line of whatever is not a ledger event", () => {
    expect(refusal(`${line}\n\n${line}\n`)).toMatch(/^ledger line 2: not JSON/)
    expect(refusal(`${line}\n{"schema":`)).toMatch(/^ledger line 2: not JSON/)
    expect(refusal("[1,2]")).toBe("ledger line 1: not a JSON object")
    expect(refusal(JSON.stringify({ ...created, schema: "armory.goal.ledger/v2" }))).toBe(
      'ledger line 1: schema is "armory.goal.ledger/v2", expected "armory.goal.ledger/v1"'
    )
    expect(refusal(JSON.stringify({ ...created, kind: "goal_deleted" }))).toBe('ledger line 1: unknown event kind "goal_deleted"')
    expect(refusal(JSON.stringify({ ...created, seq: "1; DROP TABLE goal_events" }))).toMatch(/^ledger line 1: goal_created event rejected/)
    expect(refusal(JSON.stringify({ ...created, goal: { ...created.goal, id: "../../etc" } }))).toMatch(/^ledger line 1: goal_created event rejected/)
  })

  it("never throws on arbitrary input: every text decodes or is InvalidInput", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 400 }), fc.json().map((json) => `${line}\n${json}`)), (text) => {
        const decoded = decodeLedgerJsonl(text)
        expect(Result.isSuccess(decoded) || decoded.failure instanceof InvalidInput).toBe(true)
      }),
      { numRuns: 2000 }
    )
  })

  it("reads nothing from a session that has no ledger yet", async () => {
    const root = tempRoot()
    await openGoalStore({ root })
    expect(await Effect.runPromise(exportFileLedger({ root, sessionId: "never-written" }))).toEqual([])
    expect(await Effect.runPromise(Effect.flip(exportFileLedger({ root, sessionId: "../escape" })))).toBeInstanceOf(InvalidInput)
  })

  it("refuses to export a ledger that does not fold, naming its line", async () => {
    const root = tempRoot()
    await readyGoal(root)
    const file = join(root, LEDGER_FILE)
    writeFileSync(file, readFileSync(file, "utf8").replace('"criterionId":"c1","id":"e1"', '"criterionId":"c9","id":"e1"'))
    const error = await Effect.runPromise(Effect.flip(exportFileLedger({ root })))
    expect(error).toBeInstanceOf(MalformedState)
    expect(error).toMatchObject({ file, line: 2 })
  })
})
