import { Deferred, Effect, Stream } from "effect"
import { type HttpServerRequest, HttpServerResponse } from "effect/http"
import type { HttpSessions } from "./HttpSessions.js"
import type { ListChanges } from "./ListChanges.js"

const encoder = new TextEncoder()

const event = (method: string): Uint8Array => encoder.encode(`event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", method })}\n\n`)

const rpcError = (status: number, code: number, message: string) => HttpServerResponse.jsonUnsafe({ jsonrpc: "2.0", id: null, error: { code, message } }, { status })

/**
 * The Streamable HTTP notification stream (`GET` on the endpoint with the `Mcp-Session-Id` of a live
 * session): the server's list-changed notifications as server-sent events, until the client closes
 * it or the session ends. It starts with a comment so the client sees the stream open before the
 * first change. Without a session id it is a bad request (400); for one the server did not give
 * out, or that has ended, 404, as for any request of such a session.
 */
export const notificationStream = (changes: ListChanges["Service"], sessions: HttpSessions["Service"], request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function* () {
    const id = request.headers["mcp-session-id"] ?? ""
    if (id === "") return rpcError(400, -32600, "the notification stream needs the Mcp-Session-Id of an initialized session")
    const ending = yield* sessions.ending(id)
    if (ending === undefined) return rpcError(404, -32001, "no such session: it was never opened or has ended")
    if (!(request.headers["accept"] ?? "").includes("text/event-stream")) return HttpServerResponse.empty({ status: 406 })
    const body = Stream.concat(Stream.make(encoder.encode(": armory notifications\n\n")), Stream.map(changes.stream, event)).pipe(
      Stream.interruptWhen(Deferred.await(ending))
    )
    return HttpServerResponse.stream(body, { contentType: "text/event-stream", headers: { "cache-control": "no-cache" } })
  })
