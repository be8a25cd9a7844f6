import { randomBytes } from "node:crypto"
import {
  decodeLedgerJsonl,
  encodeLedgerJsonl,
  exportFileLedger,
  GateRefused,
  GoalStore,
  importLedger,
  InvalidInput,
  LockUnavailable,
  MalformedState,
  openGoalStore,
  StorageFailure
} from "@armory/goal-store"
import {
  exportPgLedger,
  importPgLedger,
  MIGRATIONS_TABLE,
  openPgGoalDatabase,
  openPgGoalStore,
  type PgGoalDatabaseClient,
  PgGoalDatabase,
  type PgGoalStoreOptions,
  PgGoalStore,
  type PgWriteStep
} from "@armory/goal-store-pg"
import { Cause, type Duration, Effect, Exit, Layer, Result } from "effect"
import { describeRequiring } from "@armory/config/test-components"
import { afterAll, afterEach, beforeAll, expect, it } from "vitest"
import { everyKindOfEvent, RELEASE_MANAGER } from "../../goal-store/test/support/behaviour.js"
import { rejection, tempRoot } from "../../goal-store/test/support/temp.js"
import { closeAdmin, dropSchema, holdLock, query, TEST_DATABASE_URL, terminateBackends, uniqueSchema } from "./support/database.js"
import { dueSnapshot, expectSnapshotMatches } from "./support/pgHarness.js"
import { type PgProxy, startProxy } from "./support/proxy.js"

const schemas: Array<string> = []
const databases: Array<PgGoalDatabaseClient> = []

/** A fresh schema with its own pool; connections are named so a test can terminate exactly these. */
const freshDatabase = async (options: { readonly url?: string; readonly statementTimeout?: Duration.Input } = {}) => {
  const schema = uniqueSchema("storage")
  schemas.push(schema)
  const applicationName = `armory-goals-test-${randomBytes(4).toString("hex")}`
  const database = await openPgGoalDatabase({
    databaseUrl: options.url ?? TEST_DATABASE_URL,
    schema,
    applicationName,
    maxConnections: 4,
    ...(options.statementTimeout === undefined ? {} : { statementTimeout: options.statementTimeout })
  })
  databases.push(database)
  return { schema, database, applicationName }
}

const eventsOf = async (schema: string, sessionKey = "") =>
  query<{ readonly seq: number; readonly kind: string; readonly payload: { readonly checkpoint?: { readonly summary: string } } }>(
    `SELECT seq, kind, payload FROM "${schema}".goal_events WHERE session_id = $1 ORDER BY seq`,
    [sessionKey]
  )

/** The message PostgreSQL sent with a refused statement. */
const serverMessage = (error: unknown): unknown => (error as { readonly reason?: { readonly cause?: { readonly message?: unknown } } }).reason?.cause?.message

const summaries = async (schema: string) => (await eventsOf(schema)).flatMap((row) => (row.kind === "checkpoint" ? [row.payload.checkpoint?.summary] : []))

afterEach(async () => {
  await Promise.all(databases.splice(0).map((database) => database.close()))
})
afterAll(async () => {
  for (const schema of schemas) await dropSchema(schema)
  await closeAdmin()
})

describeRequiring("pg", "migrations", () => {
  it("create the schema and its tables once, under versions 1 and 2, however many openers race", async () => {
    const schema = uniqueSchema("migrate")
    schemas.push(schema)
    const openers = await Promise.all(
      Array.from({ length: 6 }, () => openPgGoalDatabase({ databaseUrl: TEST_DATABASE_URL, schema, maxConnections: 1 }))
    )
    databases.push(...openers)
    expect(await query(`SELECT migration_id, name FROM "${schema}".${MIGRATIONS_TABLE} ORDER BY migration_id`)).toEqual([
      { migration_id: 1, name: "goal_events_and_snapshots" },
      { migration_id: 2, name: "goal_snapshots_forward_only" }
    ])
    const tables = await query<{ readonly table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name",
      [schema]
    )
    expect(tables.map((row) => row.table_name)).toEqual(["goal_events", "goal_snapshots", MIGRATIONS_TABLE])
    const again = await openPgGoalDatabase({ databaseUrl: TEST_DATABASE_URL, schema })
    databases.push(again)
    expect(await query(`SELECT count(*)::int AS count FROM "${schema}".${MIGRATIONS_TABLE}`)).toEqual([{ count: 2 }])
  })

  it("refuse a schema a newer release migrated", async () => {
    const { schema } = await freshDatabase()
    await query(`INSERT INTO "${schema}".${MIGRATIONS_TABLE} (migration_id, name) VALUES (3, 'from_the_future')`)
    const error = await rejection(openPgGoalDatabase({ databaseUrl: TEST_DATABASE_URL, schema }))
    expect(error).toBeInstanceOf(StorageFailure)
    expect(error).toMatchObject({ operation: "migrate", committed: false })
    expect((error as StorageFailure).reason).toMatch(/^the schema is at version 3, newer than this release knows \(2\)/)
  })

  it("open a schema the role owns without CREATE on the database, and name the server's refusal when it is missing", async () => {
    const role = `goals_test_role_${randomBytes(4).toString("hex")}`
    const schema = uniqueSchema("owned")
    const url = new URL(TEST_DATABASE_URL)
    url.username = role
    url.password = "hunter2"
    await query(`CREATE ROLE ${role} LOGIN`)
    try {
      await query(`CREATE SCHEMA ${schema} AUTHORIZATION ${role}`)
      const owned = await openPgGoalStore({ databaseUrl: url.href, schema, maxConnections: 1 })
      try {
        await owned.set({ objective: "Owned schema" })
        expect((await owned.events()).map((event) => event.kind)).toEqual(["goal_created"])
      } finally {
        await owned.close()
      }
      const missing = await rejection(openPgGoalStore({ databaseUrl: url.href, schema: `${schema}_missing`, maxConnections: 1 }))
      expect(missing).toMatchObject({ _tag: "StorageFailure", operation: "connect" })
      expect((missing as StorageFailure).reason).toMatch(/^AuthorizationError: .*permission denied for database test.*\(SQLSTATE 42501\)$/)
      expect(JSON.stringify(missing)).not.toContain("hunter2")
    } finally {
      await query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
      await query(`DROP ROLE ${role}`)
    }
  })

  it("refuse a schema name that is not a plain identifier and a URL that is not postgres://", async () => {
    expect(await rejection(openPgGoalDatabase({ databaseUrl: TEST_DATABASE_URL, schema: 'x"; DROP SCHEMA public; --' }))).toBeInstanceOf(
      InvalidInput
    )
    expect(await rejection(openPgGoalDatabase({ databaseUrl: "mysql://root@127.0.0.1/test" }))).toBeInstanceOf(InvalidInput)
  })
})

describeRequiring("pg", "the tables", () => {
  it("keep the ledger append-only: the database itself refuses UPDATE and DELETE", async () => {
    const { schema, database } = await freshDatabase()
    await (await database.open()).set({ objective: "Immutable history" })
    expect(serverMessage(await rejection(query(`UPDATE "${schema}".goal_events SET kind = 'goal_status'`)))).toBe(
      "goal_events is append-only: UPDATE refused"
    )
    expect(serverMessage(await rejection(query(`DELETE FROM "${schema}".goal_events`)))).toBe("goal_events is append-only: DELETE refused")
    expect(await eventsOf(schema)).toHaveLength(1)
  })

  it("snapshot the first event and every snapshotEvery-th; a reader folds the events after it", async () => {
    const { schema, database } = await freshDatabase()
    const store = await database.open({ sessionId: "spaced", snapshotEvery: 5 })
    await store.set({ objective: "Snapshots" })
    const seqs: Array<number> = []
    for (let index = 0; index < 11; index++) {
      await store.checkpoint({ summary: `step ${index}` })
      const [row] = await query<{ readonly seq: number }>(`SELECT seq FROM "${schema}".goal_snapshots WHERE session_id = 'spaced'`)
      seqs.push(row?.seq ?? 0)
    }
    expect(seqs).toEqual([1, 1, 1, 5, 5, 5, 5, 5, 10, 10, 10])
    expect((await (await database.open({ sessionId: "spaced" })).status()).goal?.checkpoints).toHaveLength(11)
    for (let index = 0; index < 60; index++) await store.checkpoint({ summary: `more ${index}` })
    expect(dueSnapshot(72, 5)).toBe(70)
    await expectSnapshotMatches(schema, "spaced", database, "spaced", 5)
  })

  it("fail the open with MalformedState naming the table and the sequence when a row was tampered with", async () => {
    const { schema, database } = await freshDatabase()
    const store = await database.open()
    await store.set({ objective: "Tamper" })
    await store.checkpoint({ summary: "honest" })
    await query(`ALTER TABLE "${schema}".goal_events DISABLE TRIGGER goal_events_append_only`)
    await query(`UPDATE "${schema}".goal_events SET payload = jsonb_set(payload, '{checkpoint,id}', '"../k1"') WHERE seq = 2`)
    const error = await rejection(database.open())
    expect(error).toBeInstanceOf(MalformedState)
    expect(error).toMatchObject({ file: `${database.location}#${schema}.goal_events`, line: 2 })
    await query(`UPDATE "${schema}".goal_snapshots SET state = '{"seq": "one"}'`)
    const snapshot = await rejection(database.open())
    expect(snapshot).toMatchObject({ _tag: "MalformedState", file: `${database.location}#${schema}.goal_snapshots` })
    expect((snapshot as MalformedState).reason).toMatch(/^snapshot rejected/)
  })

  it("refuse text jsonb cannot hold (NUL, unpaired surrogates) with InvalidInput, writing nothing", async () => {
    const { schema, database } = await freshDatabase()
    const store = await database.open()
    await store.set({ objective: "Text" })
    expect(await rejection(store.checkpoint({ summary: "nul \u0000 byte" }))).toMatchObject({
      _tag: "InvalidInput",
      reason: "PostgreSQL jsonb cannot store the NUL character (U+0000)"
    })
    expect(await rejection(store.addBlocker({ detail: "half \uD800 a pair" }))).toMatchObject({
      _tag: "InvalidInput",
      reason: "PostgreSQL jsonb cannot store an unpaired UTF-16 surrogate"
    })
    await store.checkpoint({ summary: "a whole pair 🚀 is fine" })
    expect((await eventsOf(schema)).map((row) => row.kind)).toEqual(["goal_created", "checkpoint"])
  })

  it("refuse moving a snapshot back to an older sequence", async () => {
    const { schema, database } = await freshDatabase()
    const store = await database.open({ snapshotEvery: 2 })
    await store.set({ objective: "Forward" })
    await store.checkpoint({ summary: "two" })
    expect(serverMessage(await rejection(query(`UPDATE "${schema}".goal_snapshots SET seq = 1`)))).toBe(
      "goal_snapshots only moves forward: seq 2 to 1 refused"
    )
    await query(`UPDATE "${schema}".goal_snapshots SET updated_at = now()`)
  })

  it("fail an export with MalformedState naming goal_snapshots when the snapshot is not the fold of its events", async () => {
    const { schema, database } = await freshDatabase()
    const store = await database.open({ sessionId: "forged" })
    await store.set({ objective: "Honest" })
    await store.checkpoint({ summary: "after the snapshot" })
    expect((await store.events()).map((event) => event.seq)).toEqual([1, 2])
    await query(`UPDATE "${schema}".goal_snapshots SET state = jsonb_set(state, '{goal,objective}', '"Forged"') WHERE session_id = 'forged'`)
    const error = await rejection(store.events())
    expect(error).toBeInstanceOf(MalformedState)
    expect(error).toMatchObject({
      file: `${database.location}#${schema}.goal_snapshots`,
      line: 1,
      reason: "the snapshot of sequence 1 is not the fold of the events up to it"
    })
  })

  it("refuse a snapshotEvery that is not a positive integer", async () => {
    const { database } = await freshDatabase()
    for (const snapshotEvery of [Number.NaN, 0, 2.5]) {
      expect(await rejection(database.open({ snapshotEvery }))).toMatchObject({
        _tag: "InvalidInput",
        reason: `snapshotEvery must be a positive integer, got ${snapshotEvery}`
      })
    }
  })
})

describeRequiring("pg", "failures are typed", () => {
  it("an unreachable database is StorageFailure { operation: connect } without the password", async () => {
    const error = await rejection(
      openPgGoalStore({ databaseUrl: "postgres://postgres:hunter2@127.0.0.1:1/test", connectTimeout: "2 seconds" })
    )
    expect(error).toBeInstanceOf(StorageFailure)
    expect(error).toMatchObject({ operation: "connect", file: "postgres://postgres@127.0.0.1:1/test#armory_goals", committed: false })
    expect((error as StorageFailure).reason).toMatch(/^ConnectionError: /)
    expect(JSON.stringify(error)).not.toContain("hunter2")
  })

  it("a statement timeout is StorageFailure { committed: false } and leaves nothing behind", async () => {
    const { schema, database } = await freshDatabase({ statementTimeout: "300 millis" })
    const store = await database.open()
    await store.set({ objective: "Slow database" })
    const lock = holdLock(`LOCK TABLE "${schema}".goal_events IN ACCESS EXCLUSIVE MODE`, 1500)
    await lock.held
    const error = await rejection(store.checkpoint({ summary: "never lands" }))
    expect(error).toBeInstanceOf(StorageFailure)
    expect(error).toMatchObject({ committed: false })
    expect((error as StorageFailure).reason).toMatch(/^StatementTimeoutError: /)
    await lock.released
    expect((await eventsOf(schema)).map((row) => row.kind)).toEqual(["goal_created"])
    await store.checkpoint({ summary: "lands once the lock is gone" })
    expect(await summaries(schema)).toEqual(["lands once the lock is gone"])
  })
})

/** A session whose write lets another writer commit first, from inside its own transaction. */
const racedBy = async (other: (database: PgGoalDatabaseClient) => Promise<unknown>, options: PgGoalStoreOptions = {}) => {
  const { schema, database } = await freshDatabase()
  await (await database.open()).set({ objective: "Race", criteria: [{ scenario: "works", qaChannel: "cli", testRef: "t" }] })
  let raced = false
  const store = await database.open({
    ...options,
    faults: {
      beforeStep: async (step) => {
        if (step !== "event-insert" || raced) return
        raced = true
        await other(database)
      }
    }
  })
  return { schema, database, store }
}

/** A session whose next write runs `cut` at `step` of its transaction (`commit`: just before COMMIT is sent). */
const cutAt = async (step: PgWriteStep, cut: (applicationName: string) => Promise<unknown> | void, url?: string) => {
  const { schema, database, applicationName } = await freshDatabase(url === undefined ? {} : { url })
  await (await database.open()).set({ objective: "Flaky network" })
  let armed = true
  const store = await database.open({
    faults: {
      beforeStep: async (current) => {
        if (current !== step || !armed) return
        armed = false
        await cut(applicationName)
      }
    }
  })
  return { schema, store }
}

/** Makes the session's only criterion pass with green and scenario evidence. */
const ready = async (database: PgGoalDatabaseClient) => {
  const store = await database.open()
  await store.addEvidence({ criterionId: "c1", kind: "green", ref: "g" })
  await store.addEvidence({ criterionId: "c1", kind: "scenario", ref: "s" })
  await store.setCriterionStatus({ criterionId: "c1", status: "pass" })
}

describeRequiring("pg", "reads on a lost connection", () => {
  it("list sessions again on a new connection after the server ended the old ones", async () => {
    const { database, applicationName } = await freshDatabase()
    const store = await database.open({ sessionId: "listed" })
    await store.set({ objective: "Listed" })
    expect(await terminateBackends(applicationName)).toBeGreaterThan(0)
    expect(await store.sessions()).toEqual(["listed"])
  })
})

describeRequiring("pg", "optimistic sequencing", () => {
  it("re-decides against the newer state when another writer took the sequence number", async () => {
    const { schema, store } = await racedBy(async (database) => (await database.open()).checkpoint({ summary: "the other writer" }))
    const mine = await store.checkpoint({ summary: "mine" })
    expect(mine.id).toBe("k2")
    expect((await eventsOf(schema)).map((row) => row.seq)).toEqual([1, 2, 3])
    expect(await summaries(schema)).toEqual(["the other writer", "mine"])
  })

  it("decides the gate inside the transaction: complete loses to a criterion added in between", async () => {
    const { database } = await freshDatabase()
    await (await database.open()).set({ objective: "Race", criteria: [{ scenario: "works", qaChannel: "cli", testRef: "t" }] })
    await ready(database)
    let raced = false
    const completer = await database.open({
      faults: {
        beforeStep: async (step) => {
          if (step !== "event-insert" || raced) return
          raced = true
          await (await database.open()).addCriterion({ scenario: "late work", qaChannel: "cli", testRef: "t2" })
        }
      }
    })
    const error = await rejection(completer.complete())
    expect(error).toBeInstanceOf(GateRefused)
    expect((error as GateRefused).unmet).toMatchObject([{ kind: "criterion", criterionId: "c2" }])
    expect((await completer.status()).goal?.status).toBe("active")
  })

  it("gives up with LockUnavailable once the conflicts are exhausted, having written nothing", async () => {
    const { schema, store } = await racedBy(async (database) => (await database.open()).checkpoint({ summary: "the other writer" }), {
      maxConflicts: 1
    })
    const error = await rejection(store.checkpoint({ summary: "mine" }))
    expect(error).toBeInstanceOf(LockUnavailable)
    expect((error as LockUnavailable).reason).toBe("lost the race for the next sequence number to other writers 1 times")
    expect(await summaries(schema)).toEqual(["the other writer"])
  })
})

describeRequiring("pg", "connections lost mid-write", () => {
  let proxy: PgProxy
  beforeAll(async () => {
    proxy = await startProxy(new URL(TEST_DATABASE_URL))
  })
  afterAll(() => proxy.close())

  it("the server ends the connection (pg_terminate_backend) mid-transaction: rolled back, retried on a new one, landing once", async () => {
    const { schema, store } = await cutAt("event-insert", async (applicationName) => {
      expect(await terminateBackends(applicationName)).toBeGreaterThan(0)
    })
    const checkpoint = await store.checkpoint({ summary: "survives the kill" })
    expect(checkpoint.id).toBe("k1")
    expect(await summaries(schema)).toEqual(["survives the kill"])
    expect((await eventsOf(schema)).map((row) => row.seq)).toEqual([1, 2])
  })

  it("the server ends the connection (pg_terminate_backend) just before COMMIT: read back, absent, retried, landing once", async () => {
    const { schema, store } = await cutAt("commit", async (applicationName) => {
      expect(await terminateBackends(applicationName)).toBeGreaterThan(0)
    })
    const checkpoint = await store.checkpoint({ summary: "survives the kill" })
    expect(checkpoint.id).toBe("k1")
    expect(await summaries(schema)).toEqual(["survives the kill"])
    expect((await eventsOf(schema)).map((row) => row.seq)).toEqual([1, 2])
  })

  it("a COMMIT lost on its way to the server: read back by seq, found absent, retried, landing once", async () => {
    const { schema, store } = await cutAt("commit", () => proxy.dropNextRequest(), proxy.url)
    const checkpoint = await store.checkpoint({ summary: "the commit never arrived" })
    expect(checkpoint.id).toBe("k1")
    expect(await summaries(schema)).toEqual(["the commit never arrived"])
  })

  it("a COMMIT that landed but whose answer was lost: read back by seq and reported once, as a success", async () => {
    const { schema, store } = await cutAt("commit", () => proxy.dropCommitAnswer(), proxy.url)
    const checkpoint = await store.checkpoint({ summary: "committed, answer lost" })
    expect(checkpoint.id).toBe("k1")
    expect(await summaries(schema)).toEqual(["committed, answer lost"])
    expect((await store.status()).goal?.checkpoints.map((entry) => entry.id)).toEqual(["k1"])
  })

  it("a COMMIT whose answer was lost, then a read-back whose connection dies too: read back again, reported once, as a success", async () => {
    // The read-back runs in a transaction of its own; losing its connection fails its ROLLBACK as well,
    // which the SQL client raises as a defect rather than a failure.
    const { schema, store } = await cutAt("commit", () => {
      proxy.dropCommitAnswer()
      proxy.dropNextRequestContaining("DO NOTHING RETURNING seq")
    }, proxy.url)
    const checkpoint = await store.checkpoint({ summary: "committed, read back twice" })
    expect(checkpoint.id).toBe("k1")
    expect(await summaries(schema)).toEqual(["committed, read back twice"])
  })

  it("a COMMIT lost on its way, then a read-back that finds the seq free but loses its ROLLBACK: found absent, retried, landing once", async () => {
    // The read-back learns that the COMMIT did not land from its own insert going through; rolling that
    // insert back on a dead connection fails, and the SQL client then turns every failure of the
    // transaction into a defect — the read-back's answer included.
    const before = proxy.cuts()
    const { schema, store } = await cutAt("commit", () => {
      proxy.dropNextRequest()
      proxy.dropNextRequestContaining("ROLLBACK")
    }, proxy.url)
    const checkpoint = await store.checkpoint({ summary: "neither the commit nor the rollback arrived" })
    expect(proxy.cuts() - before).toBe(2)
    expect(checkpoint.id).toBe("k1")
    expect(await summaries(schema)).toEqual(["neither the commit nor the rollback arrived"])
    expect((await eventsOf(schema)).map((row) => row.seq)).toEqual([1, 2])
  })

  it("an import refused for a session that holds events, whose ROLLBACK is lost: still InvalidInput, as a failure", async () => {
    const { schema, database } = await freshDatabase()
    const session = await database.open({ sessionId: "held" })
    await session.set({ objective: "Already here" })
    const ledger = await session.events()
    const before = proxy.cuts()
    const exit = await Effect.runPromiseExit(
      Effect.gen(function* () {
        yield* Effect.sync(() => proxy.dropNextRequestContaining("ROLLBACK"))
        return yield* importPgLedger(ledger, { sessionId: "held" })
      }).pipe(Effect.provide(PgGoalDatabase.layer({ databaseUrl: proxy.url, schema, maxConnections: 2 })))
    )
    expect(proxy.cuts() - before).toBe(1)
    if (Exit.isSuccess(exit)) throw new Error("the import into a session holding events went through")
    expect(exit.cause.reasons.map((reason) => reason._tag)).toEqual(["Fail"])
    expect(Cause.squash(exit.cause)).toMatchObject({
      _tag: "InvalidInput",
      reason: "session held already holds goal g1; a ledger is imported into an empty session only"
    })
  })

  it("an outcome that cannot be read back is a StorageFailure that says it is unknown", async () => {
    const { schema, store } = await cutAt("commit", () => {
      proxy.dropCommitAnswer()
      proxy.refuseConnections(true)
    }, proxy.url)
    const error = await rejection(store.checkpoint({ summary: "landed, unconfirmed" }))
    proxy.refuseConnections(false)
    expect(error).toBeInstanceOf(StorageFailure)
    expect(error).toMatchObject({ operation: "commit", committed: false })
    expect((error as StorageFailure).reason).toMatch(/^the outcome is unknown: COMMIT of seq 2 failed \(ConnectionError/)
    expect(await summaries(schema)).toEqual(["landed, unconfirmed"])
    expect((await store.status()).goal?.checkpoints.map((entry) => entry.summary)).toEqual(["landed, unconfirmed"])
  })
})

describeRequiring("pg", "moving a ledger between backends", () => {
  it("file → pg → file is lossless, event for event", async () => {
    const root = tempRoot()
    await everyKindOfEvent(await openGoalStore({ root, sessionId: "origin", ...RELEASE_MANAGER }))
    const original = await Effect.runPromise(exportFileLedger({ root, sessionId: "origin" }))
    const { schema } = await freshDatabase()
    const database = PgGoalDatabase.layer({ databaseUrl: TEST_DATABASE_URL, schema, maxConnections: 2 })
    const viaPg = await Effect.runPromise(
      Effect.gen(function* () {
        yield* importLedger(yield* GoalStore, original)
        return yield* exportPgLedger({ sessionId: "moved" })
      }).pipe(Effect.provide(Layer.provideMerge(PgGoalStore.layerSession({ sessionId: "moved" }), database)))
    )
    expect(encodeLedgerJsonl(viaPg)).toBe(encodeLedgerJsonl(original))
    const back = tempRoot()
    await Effect.runPromise(
      Effect.gen(function* () {
        return yield* importLedger(yield* GoalStore, viaPg)
      }).pipe(Effect.provide(GoalStore.layerFile({ root: back, sessionId: "origin" })))
    )
    expect(encodeLedgerJsonl(await Effect.runPromise(exportFileLedger({ root: back, sessionId: "origin" })))).toBe(encodeLedgerJsonl(original))
    expect(await (await openGoalStore({ root: back, sessionId: "origin" })).status()).toEqual(
      await (await openGoalStore({ root, sessionId: "origin" })).status()
    )
  })

  it("imports all or nothing: an event jsonb cannot hold writes no row, and the fixed ledger imports after", async () => {
    const root = tempRoot()
    const local = await openGoalStore({ root })
    await local.set({ objective: "Half a session" })
    await local.checkpoint({ summary: "one" })
    await local.checkpoint({ summary: "bad \u0000" })
    const ledger = await Effect.runPromise(exportFileLedger({ root }))
    const { schema, database } = await freshDatabase()
    const session = await database.open({ sessionId: "atomic" })
    expect(await rejection(session.importLedger(ledger))).toMatchObject({
      _tag: "InvalidInput",
      reason: "ledger line 3 (seq 3): PostgreSQL jsonb cannot store the NUL character (U+0000)"
    })
    expect(await eventsOf(schema, "atomic")).toEqual([])
    expect(await query(`SELECT seq FROM "${schema}".goal_snapshots`)).toEqual([])
    const fixed = Result.getOrThrow(decodeLedgerJsonl(encodeLedgerJsonl(ledger).replace("bad \\u0000", "bad")))
    expect(await session.importLedger(fixed)).toEqual({ sessionId: "atomic", events: 3, seq: 3 })
    expect(encodeLedgerJsonl(await session.events())).toBe(encodeLedgerJsonl(fixed))
    expect((await (await database.open({ sessionId: "atomic" })).status()).goal?.checkpoints.map((checkpoint) => checkpoint.summary)).toEqual([
      "one",
      "bad"
    ])
    await expectSnapshotMatches(schema, "atomic", database, "atomic", 3)
    expect(await rejection(session.importLedger(fixed))).toMatchObject({
      _tag: "InvalidInput",
      reason: "session atomic already holds goal g1; a ledger is imported into an empty session only"
    })
  })

  it("imports with importPgLedger byte for byte, and refuses a ledger the domain would not have recorded", async () => {
    const root = tempRoot()
    await everyKindOfEvent(await openGoalStore({ root, sessionId: "origin", ...RELEASE_MANAGER }))
    const original = await Effect.runPromise(exportFileLedger({ root, sessionId: "origin" }))
    const { schema } = await freshDatabase()
    const database = PgGoalDatabase.layer({ databaseUrl: TEST_DATABASE_URL, schema, maxConnections: 2 })
    const tampered = Result.getOrThrow(decodeLedgerJsonl(encodeLedgerJsonl(original).replace('"id":"g1"', '"id":"g9"')))
    const [refused, report, copy] = await Effect.runPromise(
      Effect.gen(function* () {
        const refusal = yield* Effect.flip(importPgLedger(tampered, { sessionId: "moved" }))
        const imported = yield* importPgLedger(original, { sessionId: "moved" })
        return [refusal, imported, yield* exportPgLedger({ sessionId: "moved" })] as const
      }).pipe(Effect.provide(database))
    )
    expect(refused).toMatchObject({ _tag: "InvalidInput" })
    expect(refused.message).toContain("ledger line 2 (seq 2) does not replay")
    expect(report).toEqual({ sessionId: "moved", events: original.length, seq: original.length })
    expect(encodeLedgerJsonl(copy)).toBe(encodeLedgerJsonl(original))
  })
})
