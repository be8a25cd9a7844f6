export { LATEST_MIGRATION, migrate, migrations, MIGRATIONS_TABLE } from "./Migrations.js"
export { PG_WRITE_STEPS, type PgFaultHooks, type PgWriteStep } from "./PgFaults.js"
export {
  DEFAULT_SCHEMA,
  makePgGoalDatabase,
  PgGoalDatabase,
  type PgGoalDatabaseOptions,
  pgGoalDatabaseProblem,
  type PgGoalDatabaseShape,
  pgSessionDirectory
} from "./PgGoalDatabase.js"
export {
  DEFAULT_SNAPSHOT_EVERY,
  exportPgLedger,
  importPgLedger,
  makePgGoalStore,
  makePgGoalStoreBackend,
  PgGoalStore,
  type PgGoalStoreBackend,
  type PgGoalStoreOptions,
  pgGoalStoreOver
} from "./PgGoalStore.js"
export { openPgGoalDatabase, openPgGoalStore, type PgGoalDatabaseClient, type PgGoalSessionClient, type PgGoalStoreClient } from "./PgGoalStoreClient.js"
