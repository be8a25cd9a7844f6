import { ByteSize, Effect, Schema } from "effect"
import { HttpIncomingMessage, HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { MisdirectedRequest, PayloadTooLarge } from "../Errors.js"

/** The host names a loopback server answers to; any port. */
export const LOOPBACK_HOSTS: ReadonlyArray<string> = ["127.0.0.1", "localhost", "[::1]"]

/** The host name of a `Host` header value (`name[:port]`, or `[v6][:port]`), lowercased. */
const hostName = (header: string): string => {
  const value = header.trim().toLowerCase()
  if (value.startsWith("[")) return value.slice(0, value.indexOf("]") + 1)
  const colon = value.indexOf(":")
  return colon === -1 ? value : value.slice(0, colon)
}

const misdirected = (host: string) =>
  HttpServerResponse.jsonUnsafe(
    Schema.encodeSync(MisdirectedRequest)(
      new MisdirectedRequest({ message: `this server does not answer to the Host ${JSON.stringify(host)}`, host })
    ),
    { status: 421 }
  )

const tooLarge = (limitBytes: number) =>
  HttpServerResponse.jsonUnsafe(
    Schema.encodeSync(PayloadTooLarge)(
      new PayloadTooLarge({ message: `the request body is over the ${limitBytes}-byte limit`, limitBytes })
    ),
    { status: 413 }
  )

/**
 * Checks every request before any route runs: the `Host` header must name this server (the
 * DNS-rebinding defence: a page on another origin that resolves its name to 127.0.0.1 still sends
 * its own name), and a declared body must fit the limit. A body without a declared length is
 * capped while it is read.
 */
export const requestGuard = (options: { readonly allowedHosts: ReadonlyArray<string>; readonly maxBodyBytes: number }) => {
  const allowed = new Set(options.allowedHosts.map((host) => host.toLowerCase()))
  return HttpRouter.middleware(
    (httpEffect) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const host = request.headers["host"] ?? ""
        if (!allowed.has(hostName(host))) return misdirected(host)
        const declared = Number(request.headers["content-length"] ?? "0")
        if (!Number.isFinite(declared) || declared > options.maxBodyBytes) return tooLarge(options.maxBodyBytes)
        return yield* httpEffect.pipe(
          Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(options.maxBodyBytes))
        )
      }),
    { global: true }
  )
}
