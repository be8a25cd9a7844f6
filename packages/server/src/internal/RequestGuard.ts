import { ByteSize, Cause, Effect, Layer, Option, Schema } from "effect"
import { HttpIncomingMessage, HttpMethod, HttpRouter, HttpServer, HttpServerError, HttpServerRequest, HttpServerResponse } from "effect/http"
import { MethodNotAllowed, MisdirectedRequest, PayloadTooLarge, RouteNotFound, UnsupportedMediaType } from "@armory/api"
import { hostAuthorities } from "@armory/host"

/**
 * Whether a request path (before its query) is written the one way its route is: no empty, `.` or
 * `..` segment and no percent-escape (the router would otherwise resolve or decode them into a route
 * a path filter in front of the server never saw).
 */
export const isCanonicalPath = (path: string): boolean =>
  path === "/" || (path.startsWith("/") && path.slice(1).split("/").every((segment) => segment !== "" && segment !== "." && segment !== ".." && !segment.includes("%")))

/** A request target's path, without its query or fragment. */
export const pathOf = (url: string): string => {
  const query = url.search(/[?#]/)
  return query === -1 ? url : url.slice(0, query)
}

const misdirected = (host: string) =>
  HttpServerResponse.jsonUnsafe(
    Schema.encodeSync(MisdirectedRequest)(
      new MisdirectedRequest({ message: `this server does not answer to the Host ${JSON.stringify(host)}`, host })
    ),
    { status: 421 }
  )

const notFound = (method: string, path: string) =>
  HttpServerResponse.jsonUnsafe(
    Schema.encodeSync(RouteNotFound)(new RouteNotFound({ message: `no route ${method} ${JSON.stringify(path)}`, method, path })),
    { status: 404 }
  )

const methodNotAllowed = (method: string, path: string, allow: ReadonlyArray<string>) =>
  HttpServerResponse.jsonUnsafe(
    Schema.encodeSync(MethodNotAllowed)(
      new MethodNotAllowed({ message: `${path} takes ${allow.join(", ")}, not ${method}`, method, path, allow: [...allow] })
    ),
    { status: 405, headers: { allow: allow.join(", ") } }
  )

const isRouteNotFound = (error: unknown): boolean => HttpServerError.isHttpServerError(error) && error.reason._tag === "RouteNotFound"

const tooLarge = (limitBytes: number) =>
  HttpServerResponse.jsonUnsafe(
    Schema.encodeSync(PayloadTooLarge)(
      new PayloadTooLarge({ message: `the request body is over the ${limitBytes}-byte limit`, limitBytes })
    ),
    { status: 413 }
  )

/** The media types a body may have. */
const ACCEPTED_MEDIA_TYPES = ["application/json"]

const unsupportedMediaType = (contentType: string | undefined) =>
  HttpServerResponse.jsonUnsafe(
    Schema.encodeSync(UnsupportedMediaType)(
      new UnsupportedMediaType({
        message: `the request body must be ${ACCEPTED_MEDIA_TYPES.join(" or ")}; ${contentType === undefined ? "it has no Content-Type" : `its Content-Type is ${JSON.stringify(contentType)}`}`,
        contentType: contentType ?? null,
        accepted: ACCEPTED_MEDIA_TYPES
      })
    ),
    { status: 415 }
  )

/** `application/json; charset=utf-8` → `application/json`. */
const mediaType = (contentType: string): string => (contentType.split(";")[0] ?? "").trim().toLowerCase()

const isBodyTooLarge = (error: unknown): boolean =>
  HttpServerError.isHttpServerError(error) && error.reason._tag === "RequestParseError" && error.reason.reason === "BodyTooLarge"

/** The cap on a body as it is read, for the server's whole context: what a body without a declared length meets. */
export const bodyLimit = (maxBodyBytes: number) => Layer.succeed(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(maxBodyBytes))

/**
 * Checks every request before any route runs: the `Host` header must be exactly the address this
 * server listens on (the DNS-rebinding defence: a page on another origin that resolves its name to
 * 127.0.0.1 still sends its own name), the path must be canonical (`isCanonicalPath`; any other is
 * not found, as an unknown route is), a route's body must be JSON (415 `UnsupportedMediaType`) and a
 * declared body must fit the limit. A body without a declared length is capped while it is read
 * (`bodyLimit`); either way the answer is a typed 413 `PayloadTooLarge`. What no route takes is answered with a
 * typed body: 404 `RouteNotFound`, or 405 `MethodNotAllowed` with `Allow` when the path is a route's.
 */
export const requestGuard = (options: {
  readonly extraHosts: ReadonlyArray<string>
  readonly maxBodyBytes: number
  /** Every route's path and the methods it takes, for the 405 answer to a path taken with another method. */
  readonly routes: ReadonlyMap<string, ReadonlyArray<string>>
}) =>
  HttpRouter.middleware(
    Effect.gen(function* () {
      const allowed = hostAuthorities((yield* HttpServer.HttpServer).address, options.extraHosts)
      // Every request passes here, so the checks run in one step, without a generator.
      return (httpEffect) =>
        Effect.flatMap(Effect.service(HttpServerRequest.HttpServerRequest), (request) => {
          const host = request.headers["host"] ?? ""
          if (!allowed.has(host.toLowerCase())) return Effect.succeed(misdirected(host))
          const path = pathOf(request.url)
          if (!isCanonicalPath(path)) return Effect.succeed(notFound(request.method, path))
          const allow = options.routes.get(path)
          const contentType = request.headers["content-type"]
          const takesBody = HttpMethod.hasBody(request.method) && allow?.includes(request.method) === true
          if (takesBody && (contentType === undefined || !ACCEPTED_MEDIA_TYPES.includes(mediaType(contentType)))) {
            return Effect.succeed(unsupportedMediaType(contentType))
          }
          const declared = Number(request.headers["content-length"] ?? "0")
          if (!Number.isFinite(declared) || declared > options.maxBodyBytes) return Effect.succeed(tooLarge(options.maxBodyBytes))
          return httpEffect.pipe(
            Effect.catchCause((cause) => {
              // A body over the cap while it is read ends the request as a defect the platform would answer with an empty 413.
              if (isBodyTooLarge(Cause.squash(cause))) return Effect.succeed(tooLarge(options.maxBodyBytes))
              if (!Option.exists(Cause.findErrorOption(cause), isRouteNotFound)) return Effect.failCause(cause)
              return Effect.succeed(allow === undefined ? notFound(request.method, path) : methodNotAllowed(request.method, path, allow))
            })
          )
        })
    }),
    { global: true }
  )
