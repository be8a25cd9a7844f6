import { type GoalStoreError, InvalidInput, StorageFailure } from "@armory/goal-store"
import { PgClient } from "@effect/sql-pg"
import { Context, Duration, Effect, Layer, Redacted, type Scope } from "effect"
import { Reactivity } from "effect/reactivity"
import { type Migrator, SqlClient, SqlError } from "effect/sql"
import { describeSqlError, inTransaction, sqlDefectsAsFailures } from "./internal/sqlFailure.js"
import { LATEST_MIGRATION, migrate, MIGRATIONS_TABLE } from "./Migrations.js"

/** The schema the store's tables live in unless told otherwise. */
export const DEFAULT_SCHEMA = "armory_goals"

export interface PgGoalDatabaseOptions {
  /** `postgres://user:password@host:port/database`; the password never appears in errors or output. */
  readonly databaseUrl: string | Redacted.Redacted<string>
  /** The PostgreSQL schema holding the store's tables (created when missing); default `armory_goals`. */
  readonly schema?: string | undefined
  /** Pool size; default 10. */
  readonly maxConnections?: number | undefined
  /** How long opening a connection may take; default 5 seconds. */
  readonly connectTimeout?: Duration.Input | undefined
  /** The server-side `statement_timeout` of every statement; default 30 seconds. */
  readonly statementTimeout?: Duration.Input | undefined
  /**
   * The `application_name` the connections report (shown in `pg_stat_activity`); default the URL's
   * `application_name`, else `armory-goal-store`.
   */
  readonly applicationName?: string | undefined
}

export interface PgGoalDatabaseShape {
  readonly sql: SqlClient.SqlClient
  readonly schema: string
  /** The database without credentials, e.g. `postgres://postgres@127.0.0.1:5432/goals`. */
  readonly location: string
  /** Schema-qualified table names, for `sql(name)`. */
  readonly tables: { readonly events: string; readonly snapshots: string }
}

/** The goal store's database: a connection pool over a migrated schema, shared by every session opened on it. */
export class PgGoalDatabase extends Context.Service<PgGoalDatabase, PgGoalDatabaseShape>()("@armory/goal-store-pg/PgGoalDatabase") {
  /** Connects, creates the schema when missing and runs pending migrations; the pool closes with the layer. */
  static readonly layer = (options: PgGoalDatabaseOptions): Layer.Layer<PgGoalDatabase, GoalStoreError> =>
    Layer.effect(PgGoalDatabase, makePgGoalDatabase(options))
}

/** Where a session lives, as errors and `directory` name it: `postgres://user@host:port/db#schema/session`. */
export const pgSessionDirectory = (database: Pick<PgGoalDatabaseShape, "location" | "schema">, sessionId: string): string =>
  `${database.location}#${database.schema}/${sessionId}`

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/

/** A failed transaction leaves the connection holding locks; the server ends one left idle this long. */
const IDLE_IN_TRANSACTION_TIMEOUT = "10s"

/** Large goals make large snapshots; the driver's 16 MiB default would refuse to read them back. */
const MAX_MESSAGE_BYTES = 512 * 1024 * 1024

const NOT_A_POSTGRES_URL = "the database URL is not a postgres:// URL"

/** The URL without password or query (safe to print), and the application name it asks for. */
const parseUrl = (url: string): { readonly location: string; readonly applicationName: string | undefined } | undefined => {
  try {
    const parsed = new URL(url)
    if (parsed.protocol !== "postgres:" && parsed.protocol !== "postgresql:") return undefined
    const user = parsed.username === "" ? "" : `${decodeURIComponent(parsed.username)}@`
    return {
      location: `postgres://${user}${parsed.host}${parsed.pathname}`,
      applicationName: parsed.searchParams.get("application_name") ?? undefined
    }
  } catch {
    return undefined
  }
}

/**
 * What is wrong with a database URL and schema before anything connects (`undefined`: nothing), in
 * the words {@link makePgGoalDatabase} refuses them with; a CLI reports it as a usage error.
 */
export const pgGoalDatabaseProblem = (
  options: Pick<PgGoalDatabaseOptions, "databaseUrl" | "schema">
): { readonly option: "schema" | "databaseUrl"; readonly reason: string } | undefined => {
  const schema = options.schema ?? DEFAULT_SCHEMA
  if (!SCHEMA_NAME.test(schema)) {
    return { option: "schema", reason: `schema ${JSON.stringify(schema)} is not a lower-case SQL identifier (a-z, 0-9, _)` }
  }
  const url = Redacted.isRedacted(options.databaseUrl) ? Redacted.value(options.databaseUrl) : options.databaseUrl
  return parseUrl(url) === undefined ? { option: "databaseUrl", reason: NOT_A_POSTGRES_URL } : undefined
}

/**
 * Opens the pool and brings the schema up to date. Concurrent openers are safe: schema creation runs
 * under an advisory lock and the migrator locks its table, so exactly one of them migrates.
 */
export const makePgGoalDatabase = Effect.fn("makePgGoalDatabase")(function* (
  options: PgGoalDatabaseOptions
): Effect.fn.Return<PgGoalDatabaseShape, GoalStoreError, Scope.Scope> {
  const schema = options.schema ?? DEFAULT_SCHEMA
  const url = Redacted.isRedacted(options.databaseUrl) ? options.databaseUrl : Redacted.make(options.databaseUrl)
  const parsed = parseUrl(Redacted.value(url))
  const problem = pgGoalDatabaseProblem(options)
  if (problem !== undefined || parsed === undefined) return yield* new InvalidInput({ reason: problem?.reason ?? NOT_A_POSTGRES_URL })
  const { location } = parsed
  const where = `${location}#${schema}`
  const failure = (operation: string) => (error: SqlError.SqlError | Migrator.MigrationError) =>
    new StorageFailure({
      operation,
      file: where,
      reason: SqlError.isSqlError(error) ? describeSqlError(error) : error.message,
      committed: false
    })

  const sql = yield* PgClient.make({
    url,
    maxConnections: options.maxConnections ?? 10,
    connectTimeout: options.connectTimeout ?? "5 seconds",
    applicationName: options.applicationName ?? parsed.applicationName ?? "armory-goal-store",
    maxMessageSize: MAX_MESSAGE_BYTES,
    startupParameters: {
      statement_timeout: String(Duration.toMillis(options.statementTimeout ?? "30 seconds")),
      idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_TIMEOUT
    }
  }).pipe(Effect.provide(Reactivity.layer), Effect.mapError(failure("connect")))

  // PostgreSQL checks CREATE on the database before it checks whether the schema exists, so a role
  // that owns an existing schema but may not create one must not be asked to.
  yield* inTransaction(
    sql,
    Effect.gen(function* () {
      yield* sql`SELECT pg_advisory_xact_lock(hashtext(${`armory-goal-store:${schema}`}))`
      const existing = yield* sql`SELECT 1 FROM pg_namespace WHERE nspname = ${schema}`
      if (existing.length === 0) yield* sql`CREATE SCHEMA ${sql(schema)}`
    })
  ).pipe(Effect.mapError(failure("connect")))
  yield* sqlDefectsAsFailures(migrate(schema)).pipe(Effect.provideService(SqlClient.SqlClient, sql), Effect.mapError(failure("migrate")))
  const [version] = yield* sql<{ readonly latest: number }>`SELECT max(migration_id) AS latest FROM ${sql(
    `${schema}.${MIGRATIONS_TABLE}`
  )}`.pipe(Effect.mapError(failure("migrate")))
  if (version !== undefined && version.latest > LATEST_MIGRATION) {
    return yield* new StorageFailure({
      operation: "migrate",
      file: where,
      reason: `the schema is at version ${version.latest}, newer than this release knows (${LATEST_MIGRATION}); upgrade @armory/goal-store-pg`,
      committed: false
    })
  }
  return {
    sql,
    schema,
    location,
    tables: { events: `${schema}.goal_events`, snapshots: `${schema}.goal_snapshots` }
  }
})
