import { Deferred, Effect } from "effect"
import { describe, expect, it } from "@effect/vitest"
import { HttpSessions, MAX_FOLLOWED_SESSIONS } from "../src/internal/HttpSessions.js"

describe("HttpSessions", () => {
  it.effect("follows at most MAX_FOLLOWED_SESSIONS sessions, ending the oldest when one more opens", () =>
    Effect.gen(function* () {
      const sessions = yield* HttpSessions
      for (let index = 0; index <= MAX_FOLLOWED_SESSIONS; index++) yield* sessions.open(`s${index}`)
      expect(yield* sessions.ending("s0")).toBeUndefined()
      const newest = yield* sessions.ending(`s${MAX_FOLLOWED_SESSIONS}`)
      expect(newest).toBeDefined()
      expect(yield* sessions.ending("s1")).toBeDefined()
      yield* sessions.end("s1")
      expect(yield* sessions.ending("s1")).toBeUndefined()
      expect(newest === undefined ? false : yield* Deferred.isDone(newest)).toBe(false)
    }).pipe(Effect.provide(HttpSessions.layer))
  )
})
