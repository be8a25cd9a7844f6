import { DEFAULT_SNAPSHOT_EVERY, openPgGoalDatabase, type PgGoalDatabaseClient, PgGoalStore } from "@armory/goal-store-pg"
import { fold } from "@armory/goal-store/backend"
import { Result } from "effect"
import { expect } from "vitest"
import type { GoalStoreHarness } from "../../../goal-store/test/support/behaviour.js"
import { dropSchema, query, TEST_APPLICATION, TEST_DATABASE_URL, uniqueSchema } from "./database.js"

/** The sequence of the snapshot a session of `last` events must have: its first event, then every 64th. */
export const dueSnapshot = (last: number, every = DEFAULT_SNAPSHOT_EVERY): number => (last < every ? 1 : last - (last % every))

/** Asserts that a session's snapshot row is the one due and holds exactly fold(events up to its seq). */
export const expectSnapshotMatches = async (
  schema: string,
  sessionKey: string,
  database: PgGoalDatabaseClient,
  sessionId?: string,
  every = DEFAULT_SNAPSHOT_EVERY
) => {
  const events = await (await database.open({ sessionId })).events()
  const rows = await query<{ readonly seq: number; readonly state: unknown }>(
    `SELECT seq, state FROM "${schema}".goal_snapshots WHERE session_id = $1`,
    [sessionKey]
  )
  if (events.length === 0) {
    expect(rows).toEqual([])
    return
  }
  const [row] = rows
  expect(row?.seq).toBe(dueSnapshot(events.length, every))
  const prefix = fold(events.slice(0, row?.seq))
  if (Result.isFailure(prefix)) throw new Error(prefix.failure.reason)
  expect(row?.state).toEqual(JSON.parse(JSON.stringify(prefix.success)))
}

/**
 * The PostgreSQL store under the shared behaviour suite: each space is a fresh schema of the test
 * database. `closeSpaces` (after each test) ends their pools, `dropSpaces` (after the file) drops them.
 */
export const pgHarness = (label: string) => {
  const schemas: Array<string> = []
  const open: Array<PgGoalDatabaseClient> = []
  const harness: GoalStoreHarness = {
    space: async () => {
      const schema = uniqueSchema(label)
      schemas.push(schema)
      const database = await openPgGoalDatabase({ databaseUrl: TEST_DATABASE_URL, schema, maxConnections: 4, applicationName: TEST_APPLICATION })
      open.push(database)
      return {
        open: (sessionId, access) => database.open({ sessionId, ...access }),
        layer: (sessionId, access) => PgGoalStore.layer({ databaseUrl: TEST_DATABASE_URL, schema, sessionId, maxConnections: 2, ...access }),
        events: async (sessionId) => (await database.open({ sessionId })).events(),
        checkStorage: (sessionId) => expectSnapshotMatches(schema, sessionId ?? "", database, sessionId)
      }
    }
  }
  return {
    harness,
    closeSpaces: async () => {
      await Promise.all(open.splice(0).map((database) => database.close()))
    },
    dropSpaces: async () => {
      await Promise.all(open.splice(0).map((database) => database.close()))
      for (const schema of schemas.splice(0)) await dropSchema(schema)
    }
  }
}
