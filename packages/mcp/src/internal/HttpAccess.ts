import { hostAuthorities, tokenMatcher } from "@armory/host"
import { Effect, Result } from "effect"
import { Headers, HttpEffect, HttpRouter, HttpServer, HttpServerRequest, HttpServerResponse } from "effect/http"
import { MCP_PROTOCOL_VERSIONS } from "../Initialize.js"
import { HttpSessions } from "./HttpSessions.js"
import { notificationStream } from "./HttpNotifications.js"
import { ListChanges } from "./ListChanges.js"

/** A refusal before the MCP endpoint runs, as a JSON-RPC error body (no request id: the body was not read). */
const refusal = (status: number, message: string, headers: Record<string, string> = {}) =>
  HttpServerResponse.jsonUnsafe({ jsonrpc: "2.0", id: null, error: { code: -32001, message } }, { status, headers })

const SUPPORTED_VERSIONS: ReadonlySet<string> = new Set(MCP_PROTOCOL_VERSIONS)

/** JSON-RPC's codes for a body that is not JSON, and for JSON that is no request. */
const PARSE_ERROR = -32700
const INVALID_REQUEST = -32600

interface ErrorLink {
  readonly _tag?: unknown
  readonly reason?: unknown
  readonly cause?: unknown
}

/** Whether reading a body failed because it outgrew the cap: the server error's parse error says `BodyTooLarge`. */
const isOverCap = (error: unknown): boolean => {
  for (let current: unknown = error, depth = 0; typeof current === "object" && current !== null && depth < 4; depth++) {
    const link = current as ErrorLink
    if (link.reason === "BodyTooLarge" || link._tag === "MaxBytesError") return true
    current = typeof link.reason === "object" ? link.reason : link.cause
  }
  return false
}

/**
 * A body the endpoint could not take, answered with 200 — a parse error, or an invalid request it
 * could not tie to an id (no JSON-RPC message at all): it is the request that was bad, so 400.
 */
const withBadBodyStatus = (response: HttpServerResponse.HttpServerResponse): HttpServerResponse.HttpServerResponse => {
  if (response.status !== 200 || response.body._tag !== "Uint8Array" || response.body.contentLength > 4096) return response
  try {
    const answer = JSON.parse(new TextDecoder().decode(response.body.body)) as { readonly id?: unknown; readonly error?: { readonly code?: unknown } }
    const code = answer.error?.code
    return code === PARSE_ERROR || (code === INVALID_REQUEST && answer.id === null) ? HttpServerResponse.setStatus(response, 400) : response
  } catch {
    return response
  }
}

/**
 * Checks every request before the MCP endpoint sees it: the `Host` header must be exactly the address
 * the server listens on (the DNS-rebinding defence `armory serve` has too), and the request must carry
 * `Authorization: Bearer <token>`, compared in constant time, and a body must fit the cap — declared
 * or, without a declared length, as it is read (413 either way). A `GET` on the endpoint opens the
 * notification stream of a live session (404 for an unknown or ended one), which the MCP endpoint
 * itself does not serve. An `MCP-Protocol-Version` the server speaks is accepted whichever one the
 * session negotiated (the session's own is used); a body that is not JSON, or JSON that is no
 * JSON-RPC message, is answered with 400.
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
      const sessions = yield* HttpSessions
      return (httpEffect) =>
        Effect.flatMap(Effect.service(HttpServerRequest.HttpServerRequest), (request) =>
          Effect.gen(function* () {
            const host = request.headers["host"] ?? ""
            if (!allowed.has(host.toLowerCase())) return refusal(421, `this server does not answer to the Host ${JSON.stringify(host)}`)
            const authorization = request.headers["authorization"] ?? ""
            const presented = /^Bearer (.+)$/i.exec(authorization)?.[1]
            if (presented === undefined || !matches(presented)) {
              return refusal(401, "a valid Authorization: Bearer <token> header is required", { "www-authenticate": "Bearer" })
            }
            const declared = Number(request.headers["content-length"] ?? "0")
            if (!Number.isFinite(declared) || declared > options.maxBodyBytes) return refusal(413, `the request body is over the ${options.maxBodyBytes}-byte limit`)
            const onEndpoint = request.url.split("?")[0] === options.path
            if (request.method === "GET" && onEndpoint) return yield* notificationStream(changes, sessions, request)
            if (request.method === "POST" && request.headers["content-length"] === undefined) {
              // The body is read once and kept by the request: reading it here first tells an oversized one from a malformed one.
              const read = yield* Effect.result(request.arrayBuffer)
              if (Result.isFailure(read) && isOverCap(read.failure)) return refusal(413, `the request body is over the ${options.maxBodyBytes}-byte limit`)
            }
            const version = request.headers["mcp-protocol-version"]
            const forwarded =
              version !== undefined && SUPPORTED_VERSIONS.has(version) ? request.modify({ headers: Headers.remove(request.headers, "mcp-protocol-version") }) : request
            const response = yield* Effect.provideService(httpEffect, HttpServerRequest.HttpServerRequest, forwarded)
            if (!onEndpoint) return response
            // The endpoint sets the session header and the final status in its own pre-response handlers: this one runs after them.
            yield* HttpEffect.appendPreResponseHandler((_request, final) =>
              Effect.gen(function* () {
                const given = final.headers["mcp-session-id"]
                if (request.method === "POST" && given !== undefined && final.status < 300) yield* sessions.open(given)
                const session = request.headers["mcp-session-id"]
                if (request.method === "DELETE" && session !== undefined && final.status < 300) yield* sessions.end(session)
                return request.method === "POST" ? withBadBodyStatus(final) : final
              })
            )
            return response
          })
        )
    }),
    { global: true }
  )
