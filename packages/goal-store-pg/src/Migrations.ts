import { Effect } from "effect"
import { Migrator, SqlClient } from "effect/sql"

/** The table `effect/sql`'s migrator records applied versions in, inside the store's schema. */
export const MIGRATIONS_TABLE = "goal_store_migrations"

/**
 * The store's schema, one migration per version. Applied migrations are never edited: a change is a
 * new entry. `goal_events` is the ledger (one row per event, the full `armory.goal.ledger/v1` payload
 * as jsonb, keyed by session and sequence); `goal_snapshots` holds one session's folded state as of
 * the event `seq` it names, and only ever moves forward.
 */
export const migrations = (schema: string): Record<string, Effect.Effect<void, unknown, SqlClient.SqlClient>> => ({
  "1_goal_events_and_snapshots": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const events = sql(`${schema}.goal_events`)
    const snapshots = sql(`${schema}.goal_snapshots`)
    const appendOnly = sql(`${schema}.goal_events_append_only`)
    const queuedRead = sql(`${schema}.goal_events_after_queued`)
    yield* sql`CREATE TABLE ${events} (
      session_id text NOT NULL CHECK (session_id ~ '^([A-Za-z0-9][A-Za-z0-9_-]{0,63})?$'),
      seq integer NOT NULL CHECK (seq >= 1),
      kind text NOT NULL,
      payload jsonb NOT NULL,
      writer uuid NOT NULL,
      committed_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (session_id, seq),
      CHECK (payload ->> 'kind' = kind),
      CHECK ((payload ->> 'seq')::integer = seq)
    )`
    yield* sql`CREATE TABLE ${snapshots} (
      session_id text PRIMARY KEY CHECK (session_id ~ '^([A-Za-z0-9][A-Za-z0-9_-]{0,63})?$'),
      seq integer NOT NULL CHECK (seq >= 1),
      state jsonb NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`
    // The ledger is the source of truth; rewriting history is refused by the database itself.
    yield* sql`CREATE FUNCTION ${appendOnly}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'goal_events is append-only: % refused', TG_OP USING ERRCODE = 'restrict_violation';
      END
    $$`
    yield* sql`CREATE TRIGGER goal_events_append_only BEFORE UPDATE OR DELETE ON ${events}
      FOR EACH ROW EXECUTE FUNCTION ${appendOnly}()`
    // A writer that lost a race queues on the session's advisory lock, then reads what the writers
    // ahead of it committed: in one round trip, and with the read taking its snapshot after the wait.
    yield* sql`CREATE FUNCTION ${queuedRead}(session text, after integer, queue text)
      RETURNS TABLE (seq integer, payload text) LANGUAGE plpgsql VOLATILE AS $$
      #variable_conflict use_column
      BEGIN
        PERFORM pg_advisory_xact_lock(hashtextextended(queue, 0));
        RETURN QUERY SELECT e.seq, e.payload::text FROM ${events} e WHERE e.session_id = session AND e.seq > after ORDER BY e.seq;
      END
    $$`
  }),
  "2_goal_snapshots_forward_only": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const snapshots = sql(`${schema}.goal_snapshots`)
    const forwardOnly = sql(`${schema}.goal_snapshots_forward_only`)
    // Readers fold the events after the snapshot, so one moved back to an older state would be read
    // as if the events in between had happened twice; only a newer snapshot may replace it.
    yield* sql`CREATE FUNCTION ${forwardOnly}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.seq < OLD.seq THEN
          RAISE EXCEPTION 'goal_snapshots only moves forward: seq % to % refused', OLD.seq, NEW.seq USING ERRCODE = 'restrict_violation';
        END IF;
        RETURN NEW;
      END
    $$`
    yield* sql`CREATE TRIGGER goal_snapshots_forward_only BEFORE UPDATE ON ${snapshots}
      FOR EACH ROW EXECUTE FUNCTION ${forwardOnly}()`
  })
})

/** The newest version this package knows; a database migrated past it belongs to a newer release. */
export const LATEST_MIGRATION = 2

/** Runs the pending migrations of `schema` with the `effect/sql` migrator (versioned, idempotent, locked). */
export const migrate = (schema: string) =>
  Migrator.make({})({ loader: Migrator.fromRecord(migrations(schema)), table: `${schema}.${MIGRATIONS_TABLE}` })
