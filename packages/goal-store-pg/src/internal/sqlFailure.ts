import { Cause, Effect } from "effect"
import { type SqlClient, SqlError } from "effect/sql"

/** The failed ROLLBACK among a cause's defects, wherever it sits: the SQL client raises it as one. */
const lostRollback = (cause: Cause.Cause<unknown>): SqlError.SqlError | undefined => {
  for (const reason of cause.reasons) {
    if (Cause.isDieReason(reason) && SqlError.isSqlError(reason.defect)) return reason.defect
  }
  return undefined
}

/**
 * The SQL failure behind a cause. A transaction whose connection died fails its ROLLBACK too, and
 * the SQL client raises that as a defect; for the store it is the same lost connection, so it is
 * read back as the failure it is.
 */
export const sqlErrorIn = (cause: Cause.Cause<unknown>): SqlError.SqlError | undefined => {
  for (const reason of cause.reasons) {
    if (Cause.isFailReason(reason) && SqlError.isSqlError(reason.error)) return reason.error
  }
  return lostRollback(cause)
}

/**
 * A transaction's lost connection as a failure: the failed ROLLBACK the SQL client raises as a
 * defect is put back on the error channel, where retries and typed mapping can see it. It is looked
 * for among all the defects, not just the first: when the work inside had failed already, the client
 * combines that failure with the ROLLBACK's and turns both into defects, the work's one first.
 */
export const sqlDefectsAsFailures = <A, E, R>(transaction: Effect.Effect<A, E, R>): Effect.Effect<A, E | SqlError.SqlError, R> =>
  Effect.catchCause(transaction, (cause): Effect.Effect<never, E | SqlError.SqlError> => {
    const lost = lostRollback(cause)
    return lost === undefined ? Effect.failCause(cause) : Effect.fail(lost)
  })

/**
 * `sql.withTransaction(body)`, failing the way the body failed. When the body fails and the ROLLBACK
 * after it fails too, the SQL client turns the body's typed failure into a defect (see
 * {@link sqlDefectsAsFailures}), out of reach of `catchTag` and retries. PostgreSQL refuses a
 * ROLLBACK only when the connection is gone, and then the server rolls back what it left open, so
 * the body's own failure is still the transaction's outcome, and is what it fails with.
 */
export const inTransaction = <A, E, R>(sql: SqlClient.SqlClient, body: Effect.Effect<A, E, R>): Effect.Effect<A, E | SqlError.SqlError, R> =>
  Effect.suspend(() => {
    let failed: Cause.Cause<E> | undefined
    const transaction = sql.withTransaction(
      Effect.onError(body, (cause) =>
        Effect.sync(() => {
          failed = cause
        })
      )
    )
    return Effect.catchCause(transaction, (cause) => (failed === undefined ? sqlDefectsAsFailures(Effect.failCause(cause)) : Effect.failCause(failed)))
  })

const sqlState = (error: SqlError.SqlError): string | undefined => {
  const cause: unknown = error.reason.cause
  if (typeof cause !== "object" || cause === null || !("code" in cause)) return undefined
  return typeof cause.code === "string" ? cause.code : undefined
}

/**
 * Whether the connection is gone: a socket error, a connection-class SQLSTATE (08…), or the server
 * ending the session (57P01 `pg_terminate_backend`, 57P02/57P03 shutdown and start-up). Such a
 * failure says nothing about the statement itself, so the work may be tried again on a new one.
 */
export const connectionLost = (error: SqlError.SqlError): boolean => {
  if (error.reason._tag === "ConnectionError") return true
  const code = sqlState(error)
  return code !== undefined && (code.startsWith("08") || code.startsWith("57P"))
}

/** Another writer took the sequence number: the primary key of `goal_events` refused the insert. */
export const isSequenceConflict = (error: SqlError.SqlError): boolean => error.reason._tag === "UniqueViolation"

const SQLSTATE = /^[0-9A-Z]{5}$/

/** Credentials in a URL (`//user:password@`), dropped from any text an error carries. */
const URL_PASSWORD = /(\/\/[^/:@\s]*):[^@\s]*@/g

/** The server's (or driver's) own text, e.g. `permission denied for database goals`. */
const causeMessage = (error: SqlError.SqlError): string | undefined => {
  const cause: unknown = error.reason.cause
  if (typeof cause !== "object" || cause === null || !("message" in cause)) return undefined
  return typeof cause.message === "string" && cause.message !== "" ? cause.message : undefined
}

/**
 * The failure for a typed error: the reason's tag first (`ConnectionError`, `StatementTimeoutError`,
 * …), then the server's message when the client's own does not carry it, then the SQLSTATE.
 */
export const describeSqlError = (error: SqlError.SqlError): string => {
  const code = sqlState(error)
  const detail = causeMessage(error)
  const message = detail === undefined || error.message.includes(detail) ? error.message : `${error.message}: ${detail}`
  const text = code === undefined || message.includes(code) ? message : `${message} (${SQLSTATE.test(code) ? "SQLSTATE " : ""}${code})`
  return `${error.reason._tag}: ${text}`.replace(URL_PASSWORD, "$1@")
}
