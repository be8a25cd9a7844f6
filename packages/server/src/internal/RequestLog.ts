import { randomUUID } from "node:crypto"
import { Cause, Clock, Effect } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"

/** The response header that carries a request's id, the one its log line names. */
export const REQUEST_ID_HEADER = "x-request-id"

const pathOf = (url: string): string => {
  const query = url.search(/[?#]/)
  return query === -1 ? url : url.slice(0, query)
}

/**
 * One `info` line per request once it is answered: method, route (the path, without its query),
 * status, duration and a request id, which the response also carries in `x-request-id`. Never a
 * header value or a body, so a token or a payload stays out of the logs. A request that fails
 * without an answer is logged at `error` with its status 500.
 */
export const requestLog = HttpRouter.middleware(
  (httpEffect) =>
    Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const requestId = randomUUID()
      const started = yield* Clock.monotonicTimeNanos
      const line = (status: number) =>
        Effect.map(Clock.monotonicTimeNanos, (now) => ({
          method: request.method,
          route: pathOf(request.url),
          status,
          durationMs: Number(now - started) / 1e6,
          requestId
        }))
      return yield* httpEffect.pipe(
        Effect.tap((response) => Effect.flatMap(line(response.status), (entry) => Effect.logInfo("request", entry))),
        Effect.map(HttpServerResponse.setHeader(REQUEST_ID_HEADER, requestId)),
        Effect.tapCause((cause) =>
          Cause.hasInterruptsOnly(cause) ? Effect.void : Effect.flatMap(line(500), (entry) => Effect.logError("request", entry))
        )
      )
    }),
  { global: true }
)
