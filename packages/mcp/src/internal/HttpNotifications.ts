import { Effect, Stream } from "effect"
import { type HttpServerRequest, HttpServerResponse } from "effect/http"
import type { ListChanges } from "./ListChanges.js"

const encoder = new TextEncoder()

const event = (method: string): Uint8Array => encoder.encode(`event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", method })}\n\n`)

/**
 * The Streamable HTTP notification stream (`GET` on the endpoint with `Mcp-Session-Id`): the
 * server's list-changed notifications as server-sent events, for as long as the client keeps it
 * open. It starts with a comment so the client sees the stream open before the first change.
 */
export const notificationStream = (changes: ListChanges["Service"], request: HttpServerRequest.HttpServerRequest) =>
  Effect.sync(() => {
    if ((request.headers["mcp-session-id"] ?? "") === "") {
      return HttpServerResponse.jsonUnsafe(
        { jsonrpc: "2.0", id: null, error: { code: -32600, message: "the notification stream needs the Mcp-Session-Id of an initialized session" } },
        { status: 400 }
      )
    }
    if (!(request.headers["accept"] ?? "").includes("text/event-stream")) return HttpServerResponse.empty({ status: 406 })
    const body = Stream.concat(Stream.make(encoder.encode(": armory notifications\n\n")), Stream.map(changes.stream, event))
    return HttpServerResponse.stream(body, { contentType: "text/event-stream", headers: { "cache-control": "no-cache" } })
  })
