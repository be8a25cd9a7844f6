import { Effect } from "effect"

/**
 * The Effect form of a Promise API whose rejections are its typed errors: those become failures,
 * anything else (a bug) a defect.
 */
export const fromPromise = <A, E>(run: () => Promise<A>, isTyped: (error: unknown) => error is E): Effect.Effect<A, E> =>
  Effect.tryPromise({ try: run, catch: (error) => error }).pipe(
    Effect.catch((error) => (isTyped(error) ? Effect.fail(error) : Effect.die(error)))
  )
