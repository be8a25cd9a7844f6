import { type GoalStoreClient, type ImportReport, type LedgerEvent } from "@armory/goal-store"
import { goalStoreClient } from "@armory/goal-store/backend"
import { Effect, Layer, ManagedRuntime } from "effect"
import { makePgGoalDatabase, PgGoalDatabase, type PgGoalDatabaseOptions } from "./PgGoalDatabase.js"
import { makePgGoalStoreBackend, pgGoalStoreOver, type PgGoalStoreOptions } from "./PgGoalStore.js"

/** A session of the PostgreSQL store without Effect: the file store's client plus the committed ledger. */
export interface PgGoalSessionClient extends GoalStoreClient {
  /** The session's committed events, in sequence order. */
  events(): Promise<ReadonlyArray<LedgerEvent>>
  /** Writes an exported ledger into this empty session in one transaction; a refusal writes nothing. */
  importLedger(events: ReadonlyArray<LedgerEvent>): Promise<ImportReport>
}

/** A session with a pool of its own; `close()` ends the pool, or the process would stay alive for it. */
export interface PgGoalStoreClient extends PgGoalSessionClient {
  close(): Promise<void>
}

/** One pool over a migrated schema, for any number of sessions (a server opens each request's session on it). */
export interface PgGoalDatabaseClient {
  readonly schema: string
  /** The database without credentials. */
  readonly location: string
  open(options?: PgGoalStoreOptions): Promise<PgGoalSessionClient>
  close(): Promise<void>
}

/** Connects and migrates; rejects with `StorageFailure` when the database cannot be reached or migrated. */
export const openPgGoalDatabase = async (options: PgGoalDatabaseOptions): Promise<PgGoalDatabaseClient> => {
  const runtime = ManagedRuntime.make(Layer.effect(PgGoalDatabase, makePgGoalDatabase(options)))
  const close = () => runtime.dispose()
  const database = await runtime.runPromise(Effect.service(PgGoalDatabase)).catch(async (error: unknown) => {
    await close()
    throw error
  })
  return {
    schema: database.schema,
    location: database.location,
    open: async (session = {}) => {
      const backend = await runtime.runPromise(makePgGoalStoreBackend(session))
      const store = await runtime.runPromise(pgGoalStoreOver(backend, session))
      return {
        ...goalStoreClient(store),
        events: () => Effect.runPromise(backend.events()),
        importLedger: (events) => Effect.runPromise(backend.importLedger(events))
      }
    },
    close
  }
}

/** Opens one session on a pool of its own (default schema `armory_goals`, default session). */
export const openPgGoalStore = async (options: PgGoalDatabaseOptions & PgGoalStoreOptions): Promise<PgGoalStoreClient> => {
  const database = await openPgGoalDatabase(options)
  try {
    return { ...(await database.open(options)), close: database.close }
  } catch (error) {
    await database.close()
    throw error
  }
}
