import { randomUUID } from "node:crypto"
import { Cause, Clock, Context, Effect } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { pathOf } from "./RequestGuard.js"

/** The response header that carries a request's id, the one its log line names. */
export const REQUEST_ID_HEADER = "x-request-id"

/**
 * One `info` line per request once it is answered: method, route (the path, without its query),
 * status, duration and a request id, which the response also carries in `x-request-id`. Never a
 * header value or a body, so a token or a payload stays out of the logs. A request that fails
 * without an answer is logged at `error` with its status 500. It runs on every request, so it reads
 * what it needs in one step and adds one step after.
 */
export const requestLog = HttpRouter.middleware(
  (httpEffect) =>
    Effect.contextWith((context: Context.Context<HttpServerRequest.HttpServerRequest>) => {
      const request = Context.get(context, HttpServerRequest.HttpServerRequest)
      const clock = Context.get(context, Clock.Clock)
      const requestId = randomUUID()
      const started = clock.monotonicTimeNanosUnsafe()
      const line = (status: number) => ({
        method: request.method,
        route: pathOf(request.url),
        status,
        durationMs: Number(clock.monotonicTimeNanosUnsafe() - started) / 1e6,
        requestId
      })
      return Effect.matchCauseEffect(httpEffect, {
        onSuccess: (response) =>
          Effect.as(Effect.logInfo("request", line(response.status)), HttpServerResponse.setHeader(response, REQUEST_ID_HEADER, requestId)),
        onFailure: (cause) =>
          Cause.hasInterruptsOnly(cause) ? Effect.failCause(cause) : Effect.andThen(Effect.logError("request", line(500)), Effect.failCause(cause))
      })
    }),
  { global: true }
)
