import {
  DEFAULT_SESSION,
  type GoalMutationName,
  type GoalStoreAccess,
  type GoalStoreClient,
  type GoalStoreClientMutations,
  type GoalStoreError,
  type GoalStoreShape,
  runMutation
} from "@armory/goal-store"
import { mutationMethods } from "@armory/goal-store/backend"
import { Effect, Exit, Scope } from "effect"
import type { GoalBacking } from "./GoalStores.js"

export type { GoalMutationName, GoalOperationName, GoalStoreError, GoalStoreShape, InputOf, OutputOf } from "@armory/goal-store"
export { runMutation } from "@armory/goal-store"
export { isMutationName } from "@armory/goal-store"
export { mutationMethods } from "@armory/goal-store/backend"

/** How many sessions a host keeps open at once by default; the least recently used idle one closes first. */
export const DEFAULT_MAX_OPEN_SESSIONS = 64

export interface GoalSessionsShape {
  /**
   * Runs `use` on the session `sessionId` names (the default session when undefined), opened on its
   * first use and kept open for the next: a store is read and checked once, not per request.
   */
  readonly use: <A, E>(
    sessionId: string | undefined,
    use: (store: GoalStoreShape) => Effect.Effect<A, E>
  ) => Effect.Effect<A, E | GoalStoreError>
  /**
   * The session as a Promise client that opens it on its first call (code that never touches goals
   * reads no goal state), for a model-facing surface such as code mode's `goals` global.
   */
  readonly client: (sessionId?: string | undefined) => GoalStoreClient
  /** The absolute goals root of a file store (refusals name files under it); none for a database. */
  readonly root: string | undefined
  /** Who operates these sessions (then `force` takes effect, recorded with this name); none for a model-facing surface. */
  readonly operator: string | undefined
}

interface OpenSession {
  readonly scope: Scope.Closeable
  /** Opens the session once; every later run of it answers the same store. */
  readonly store: Effect.Effect<GoalStoreShape, GoalStoreError>
  /** The store, once it has opened. */
  opened: GoalStoreShape | undefined
  users: number
}

/**
 * The goal sessions of a long-running host (a server, an MCP server), over one opened store and
 * with one access (an operator, or none). Sessions open on first use and stay open, up to
 * `maxOpen`; past that the least recently used idle session is closed (a file session brings
 * `goals.json` up to date as it closes). A failed open is not kept, so a repaired session opens on the
 * next use. Every session still open closes with the scope.
 */
export const makeGoalSessions = Effect.fn("makeGoalSessions")(function* (
  backing: GoalBacking,
  access: GoalStoreAccess = {},
  options: { readonly maxOpen?: number | undefined } = {}
): Effect.fn.Return<GoalSessionsShape, never, Scope.Scope> {
  const hostScope = yield* Effect.scope
  const maxOpen = Math.max(1, options.maxOpen ?? DEFAULT_MAX_OPEN_SESSIONS)
  const open = (sessionId: string | undefined) => backing.open(sessionId, access)
  // Insertion order is recency order: a use moves its session to the end.
  const sessions = new Map<string, OpenSession>()

  const closeIdleOverflow = Effect.suspend(() => {
    if (sessions.size <= maxOpen) return Effect.void
    const idle = [...sessions].filter(([, session]) => session.users === 0)
    const excess = idle.slice(0, Math.max(0, sessions.size - maxOpen))
    for (const [key] of excess) sessions.delete(key)
    return Effect.forEach(excess, ([, session]) => Scope.close(session.scope, Exit.void), { discard: true })
  })

  const acquire = (key: string, sessionId: string | undefined) =>
    Effect.gen(function* () {
      let session = sessions.get(key)
      if (session === undefined) {
        const scope = yield* Scope.fork(hostScope)
        // The open runs only once the entry exists, so it can record the store on it.
        let entry: OpenSession | undefined
        const store = yield* Effect.cached(
          open(sessionId).pipe(
            Scope.provide(scope),
            Effect.tap((opened) =>
              Effect.sync(() => {
                if (entry !== undefined) entry.opened = opened
              })
            ),
            Effect.tapError(() =>
              Effect.suspend(() => {
                if (sessions.get(key)?.scope === scope) sessions.delete(key)
                return Scope.close(scope, Exit.void)
              })
            )
          )
        )
        entry = { scope, store, opened: undefined, users: 0 }
        session = entry
      }
      return touch(key, session)
    })

  /** Marks a session used: the most recent in order, one more user. */
  const touch = (key: string, session: OpenSession) => {
    sessions.delete(key)
    sessions.set(key, session)
    session.users += 1
    return session
  }

  const release = (session: OpenSession) =>
    Effect.suspend(() => {
      session.users -= 1
      return closeIdleOverflow
    })

  const use = <A, E>(sessionId: string | undefined, operation: (store: GoalStoreShape) => Effect.Effect<A, E>) =>
    Effect.suspend(() => {
      const key = sessionId ?? ""
      const session = sessions.get(key)
      // A session that is open already needs no acquiring: the common case of a long-running host.
      const opened = session?.opened
      if (session !== undefined && opened !== undefined) {
        touch(key, session)
        return Effect.ensuring(operation(opened), release(session))
      }
      return Effect.acquireUseRelease(acquire(key, sessionId), (acquired) => Effect.flatMap(acquired.store, operation), release)
    })

  return {
    use,
    client: (sessionId) => {
      const run = <A>(operation: (store: GoalStoreShape) => Effect.Effect<A, GoalStoreError>): Promise<A> =>
        Effect.runPromise(use(sessionId, operation))
      const mutations = mutationMethods<GoalStoreClientMutations>(
        <N extends GoalMutationName>(name: N) =>
          ((input?: unknown) => run((store) => runMutation(store, name, input))) as GoalStoreClientMutations[N]
      )
      return {
        ...mutations,
        sessionId: sessionId ?? DEFAULT_SESSION,
        directory: backing.location(sessionId),
        status: () => run((store) => store.status()),
        sessions: () => run((store) => store.sessions()),
        snapshot: () => run((store) => store.snapshot())
      }
    },
    root: backing.root,
    operator: access.operator
  }
})
