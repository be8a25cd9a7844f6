import { resolve } from "node:path"
import {
  DEFAULT_ROOT,
  DEFAULT_SESSION,
  exportFileLedger,
  type GoalStoreAccess,
  type GoalStoreError,
  type GoalStoreShape,
  type ImportReport,
  importLedger,
  type LedgerEvent,
  makeScopedFileGoalStore,
  sessionPaths
} from "@armory/goal-store"
import {
  exportPgLedger,
  importPgLedger,
  makePgGoalDatabase,
  makePgGoalStore,
  PgGoalDatabase,
  type PgGoalDatabaseShape,
  pgSessionDirectory
} from "@armory/goal-store-pg"
import { Effect, Result, type Redacted, type Scope } from "effect"

/** Where goals are kept: files under a root (default `.armory/goals`), or a shared PostgreSQL database. */
export type GoalStoreSelection =
  | { readonly store: "file"; readonly root: string | undefined }
  | { readonly store: "pg"; readonly databaseUrl: Redacted.Redacted<string>; readonly schema: string | undefined }

/** Opens the selected database (pool and migrations); it closes with the scope. */
export const openPgDatabase = (selection: Extract<GoalStoreSelection, { store: "pg" }>) =>
  makePgGoalDatabase({ databaseUrl: selection.databaseUrl, schema: selection.schema })

/** Opens one session over an open database: a long-running host shares the pool across sessions. */
export const pgSession = (
  database: PgGoalDatabaseShape,
  sessionId: string | undefined,
  access: GoalStoreAccess = {}
): Effect.Effect<GoalStoreShape, GoalStoreError> =>
  makePgGoalStore({ sessionId, ...access }).pipe(Effect.provideService(PgGoalDatabase, database))

/** A selected store, opened: a long-running host opens sessions on it (a database, its pool, once). */
export interface GoalBacking {
  readonly open: (sessionId: string | undefined, access: GoalStoreAccess) => Effect.Effect<GoalStoreShape, GoalStoreError, Scope.Scope>
  /** Where a session lives, for display; an id the store refuses has none (`""`), its every call failing with the refusal. */
  readonly location: (sessionId: string | undefined) => string
  /** The absolute goals root of a file store (refusals name files under it); none for a database. */
  readonly root: string | undefined
}

/** Opens the selection for a host; a database's pool closes with the scope. */
export const openGoalBacking = (selection: GoalStoreSelection): Effect.Effect<GoalBacking, GoalStoreError, Scope.Scope> => {
  if (selection.store === "pg") {
    return Effect.map(openPgDatabase(selection), (database) => ({
      open: (sessionId, access) => pgSession(database, sessionId, access),
      location: (sessionId) => pgSessionDirectory(database, sessionId ?? DEFAULT_SESSION),
      root: undefined
    }))
  }
  const root = resolve(selection.root ?? DEFAULT_ROOT)
  return Effect.succeed({
    // A host's event loop answers others while a write commits.
    open: (sessionId, access) => makeScopedFileGoalStore({ root, sessionId, offloadFsync: true, ...access }),
    location: (sessionId) => Result.getOrElse(Result.map(sessionPaths({ root, sessionId }), (paths) => paths.directory), () => ""),
    root
  })
}

/** Opens one session of the selected store for one command; a file session leaves `goals.json` current when the scope ends. */
export const openGoalSession = (
  selection: GoalStoreSelection,
  sessionId: string | undefined,
  access: GoalStoreAccess = {}
): Effect.Effect<GoalStoreShape, GoalStoreError, Scope.Scope> =>
  selection.store === "file"
    ? makeScopedFileGoalStore({ root: selection.root, sessionId, ...access })
    : Effect.flatMap(openPgDatabase(selection), (database) => pgSession(database, sessionId, access))

/** A session's committed ledger, from either store. */
export const exportSession = (
  selection: GoalStoreSelection,
  sessionId: string | undefined
): Effect.Effect<ReadonlyArray<LedgerEvent>, GoalStoreError, Scope.Scope> =>
  selection.store === "file"
    ? exportFileLedger({ root: selection.root, sessionId })
    : Effect.flatMap(openPgDatabase(selection), (database) =>
        exportPgLedger({ sessionId }).pipe(Effect.provideService(PgGoalDatabase, database))
      )

/**
 * Imports a ledger into an empty session. PostgreSQL gets the atomic import: the whole ledger in one
 * transaction, so an event the database cannot hold writes nothing instead of half a session.
 */
export const importSession = (
  selection: GoalStoreSelection,
  sessionId: string | undefined,
  events: ReadonlyArray<LedgerEvent>
): Effect.Effect<ImportReport, GoalStoreError, Scope.Scope> =>
  selection.store === "file"
    ? Effect.flatMap(makeScopedFileGoalStore({ root: selection.root, sessionId }), (store) => importLedger(store, events))
    : Effect.flatMap(openPgDatabase(selection), (database) =>
        importPgLedger(events, { sessionId }).pipe(Effect.provideService(PgGoalDatabase, database))
      )
