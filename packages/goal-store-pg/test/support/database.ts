import { randomBytes } from "node:crypto"
import { testDatabaseUrl } from "@armory/config/components"
import { PgClient } from "@effect/sql-pg"
import { Effect, ManagedRuntime, Redacted } from "effect"
import { SqlClient } from "effect/sql"

/** The real PostgreSQL the tests run against (trust auth on 127.0.0.1 in CI; `ARMORY_GOALS_TEST_DATABASE_URL`). */
export const TEST_DATABASE_URL = testDatabaseUrl()

/** What test connections call themselves, so a test can find (and terminate) the store's backends. */
export const TEST_APPLICATION = "armory-goals-test"

const runtime = ManagedRuntime.make(PgClient.layer({ url: Redacted.make(TEST_DATABASE_URL), maxConnections: 3, applicationName: "armory-goals-test-admin" }))

/** Runs SQL outside the store: for setting up, inspecting and breaking things. */
export const query = <A extends object = Record<string, unknown>>(text: string, params: ReadonlyArray<unknown> = []): Promise<ReadonlyArray<A>> =>
  runtime.runPromise(
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      return yield* sql.unsafe<A>(text, params)
    })
  )

/** A schema name no other run uses; the caller drops it. */
export const uniqueSchema = (label: string): string => `goals_test_${label}_${process.pid}_${randomBytes(4).toString("hex")}`

export const dropSchema = async (schema: string): Promise<void> => {
  await query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
}

export const closeAdmin = (): Promise<void> => runtime.dispose()

/** Ends every connection of the store's pools in this schema run (what an operator's `pg_terminate_backend` does). */
export const terminateBackends = async (applicationName: string): Promise<number> => {
  const rows = await query<{ readonly terminated: boolean }>(
    "SELECT pg_terminate_backend(pid) AS terminated FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()",
    [applicationName]
  )
  return rows.filter((row) => row.terminated).length
}

const notYet = () => undefined

/** Holds a lock in a transaction of its own for `ms`: `held` resolves once it is taken, `released` when it ends. */
export const holdLock = (statement: string, ms: number): { readonly held: Promise<void>; readonly released: Promise<void> } => {
  let taken: () => void = notYet
  const held = new Promise<void>((resolve) => (taken = resolve))
  const released = runtime.runPromise(
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* sql.withTransaction(
        Effect.gen(function* () {
          yield* sql.unsafe(statement)
          yield* Effect.sync(taken)
          yield* Effect.sleep(ms)
        })
      )
    })
  )
  return { held, released }
}
