import { hostAuthorities, tokenMatcher } from "@armory/host"
import { Effect } from "effect"
import { HttpRouter, HttpServer, HttpServerRequest, HttpServerResponse } from "effect/http"
import { notificationStream } from "./HttpNotifications.js"
import { ListChanges } from "./ListChanges.js"

/** A refusal before the MCP endpoint runs, as a JSON-RPC error body (no request id: the body was not read). */
const refusal = (status: number, message: string, headers: Record<string, string> = {}) =>
  HttpServerResponse.jsonUnsafe({ jsonrpc: "2.0", id: null, error: { code: -32001, message } }, { status, headers })

/**
 * Checks every request before the MCP endpoint sees it: the `Host` header must be exactly the address
 * the server listens on (the DNS-rebinding defence `armory serve` has too), and the request must carry
 * `Authorization: Bearer <token>`, compared in constant time, and a body must fit the cap. A `GET` on the endpoint opens the
 * notification stream, which the MCP endpoint itself does not serve.
 */
export const httpAccess = (options: {
  readonly token: string
  readonly extraHosts: ReadonlyArray<string>
  readonly path: string
  /** A declared body over this is refused unread; one without a declared length is capped as it is read. */
  readonly maxBodyBytes: number
}) =>
  HttpRouter.middleware(
    Effect.gen(function* () {
      const allowed = hostAuthorities((yield* HttpServer.HttpServer).address, options.extraHosts)
      const matches = tokenMatcher(options.token)
      const changes = yield* ListChanges
      return (httpEffect) =>
        Effect.flatMap(Effect.service(HttpServerRequest.HttpServerRequest), (request) => {
          const host = request.headers["host"] ?? ""
          if (!allowed.has(host.toLowerCase())) {
            return Effect.succeed(refusal(421, `this server does not answer to the Host ${JSON.stringify(host)}`))
          }
          const authorization = request.headers["authorization"] ?? ""
          const presented = /^Bearer (.+)$/i.exec(authorization)?.[1]
          if (presented === undefined || !matches(presented)) {
            return Effect.succeed(refusal(401, "a valid Authorization: Bearer <token> header is required", { "www-authenticate": "Bearer" }))
          }
          const declared = Number(request.headers["content-length"] ?? "0")
          if (!Number.isFinite(declared) || declared > options.maxBodyBytes) {
            return Effect.succeed(refusal(413, `the request body is over the ${options.maxBodyBytes}-byte limit`))
          }
          if (request.method === "GET" && request.url.split("?")[0] === options.path) return notificationStream(changes, request)
          return httpEffect
        })
    }),
    { global: true }
  )
