import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { GoalStore, openGoalStore } from "@armory/goal-store"
import { fold } from "@armory/goal-store/backend"
import { Result } from "effect"
import { expect } from "vitest"
import type { GoalStoreHarness } from "./behaviour.js"
import { ledgerOf } from "./files.js"
import { tempRoot } from "./temp.js"

/** The file store under the shared behaviour suite: each space is a fresh temporary root. */
export const fileHarness: GoalStoreHarness = {
  space: async () => {
    const root = tempRoot()
    const directory = (sessionId: string | undefined) => (sessionId === undefined ? root : join(root, "sessions", sessionId))
    return {
      open: (sessionId, access) => openGoalStore({ root, sessionId, ...access }),
      layer: (sessionId, access) => GoalStore.layerFile({ root, sessionId, ...access }),
      events: async (sessionId) => (existsSync(join(directory(sessionId), "ledger.jsonl")) ? ledgerOf(directory(sessionId)).events : []),
      checkStorage: async (sessionId) => {
        const ledger = readFileSync(join(directory(sessionId), "ledger.jsonl"))
        expect(ledger.at(-1)).toBe(0x0a)
        const snapshot = JSON.parse(readFileSync(join(directory(sessionId), "goals.json"), "utf8")) as {
          readonly seq: number
          readonly ledgerBytes: number
          readonly counters: unknown
          readonly goal: unknown
        }
        const events = ledgerOf(directory(sessionId)).events
        const prefix = fold(events.slice(0, snapshot.seq))
        if (Result.isFailure(prefix)) throw new Error(prefix.failure.reason)
        expect({ seq: snapshot.seq, counters: snapshot.counters, goal: snapshot.goal }).toEqual(prefix.success)
        const lineEnds = ledger.reduce<Array<number>>((ends, byte, index) => (byte === 0x0a ? [...ends, index + 1] : ends), [])
        expect(snapshot.ledgerBytes).toBe(snapshot.seq === 0 ? 0 : lineEnds[snapshot.seq - 1])
      }
    }
  }
}
