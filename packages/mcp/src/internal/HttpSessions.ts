import { Context, Deferred, Effect, Layer } from "effect"

/** The most sessions followed at once; past it the oldest is forgotten (its notification stream ends). */
export const MAX_FOLLOWED_SESSIONS = 10_000

/**
 * The Streamable HTTP sessions the endpoint gave out and has not ended, for what the MCP endpoint
 * does not serve itself: the notification stream opens only for one of them and ends when it does.
 */
export class HttpSessions extends Context.Service<
  HttpSessions,
  {
    /** A session the endpoint gave out (its `Mcp-Session-Id` in an answer). */
    readonly open: (id: string) => Effect.Effect<void>
    /** A session ended by `DELETE`. */
    readonly end: (id: string) => Effect.Effect<void>
    /** Completes when the session ends; undefined when it is not a live session. */
    readonly ending: (id: string) => Effect.Effect<Deferred.Deferred<void> | undefined>
  }
>()("@armory/mcp/HttpSessions") {
  static readonly layer = Layer.effect(
    HttpSessions,
    Effect.gen(function* () {
      const live = new Map<string, Deferred.Deferred<void>>()
      const end = (id: string) =>
        Effect.suspend(() => {
          const ending = live.get(id)
          live.delete(id)
          return ending === undefined ? Effect.void : Effect.asVoid(Deferred.succeed(ending, undefined))
        })
      // Ending every stream when the server stops lets the HTTP server close its connections.
      yield* Effect.addFinalizer(() => Effect.forEach([...live.keys()], end, { discard: true }))
      return {
        open: (id) =>
          Effect.gen(function* () {
            if (live.has(id)) return
            const oldest = live.size >= MAX_FOLLOWED_SESSIONS ? live.keys().next().value : undefined
            if (oldest !== undefined) yield* end(oldest)
            live.set(id, yield* Deferred.make<void>())
          }),
        end,
        ending: (id) => Effect.sync(() => live.get(id))
      }
    })
  )
}
