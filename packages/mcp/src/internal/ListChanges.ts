import { Context, Effect, Layer, PubSub, Stream } from "effect"

/**
 * The list-changed notifications the server announces, for the transports that deliver them
 * themselves (the Streamable HTTP notification stream). Each subscriber keeps only the latest few:
 * a change says "list again", so a reader that fell behind loses nothing by skipping older ones.
 */
export class ListChanges extends Context.Service<
  ListChanges,
  { readonly publish: (method: string) => Effect.Effect<void>; readonly stream: Stream.Stream<string> }
>()("@armory/mcp/ListChanges") {
  static readonly layer = Layer.effect(
    ListChanges,
    Effect.gen(function* () {
      const pubsub = yield* Effect.acquireRelease(PubSub.sliding<string>(16), PubSub.shutdown)
      return { publish: (method) => Effect.asVoid(PubSub.publish(pubsub, method)), stream: Stream.fromPubSub(pubsub) }
    })
  )
}
