import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { makeGoalSessions, openGoalBacking } from "../src/index.js"

/** Runs `body` on the sessions of a file store under `root`, recording every session the store is asked to open. */
const withSessions = <A>(
  root: string,
  maxOpen: number,
  body: (sessions: Effect.Success<ReturnType<typeof makeGoalSessions>>, opened: ReadonlyArray<string | undefined>) => Effect.Effect<A, unknown>
) =>
  Effect.runPromise(
    Effect.gen(function* () {
      const opened: Array<string | undefined> = []
      const backing = yield* openGoalBacking({ store: "file", root })
      const counted: typeof backing = {
        ...backing,
        open: (sessionId, access) => {
          opened.push(sessionId)
          return backing.open(sessionId, access)
        }
      }
      return yield* body(yield* makeGoalSessions(counted, {}, { maxOpen }), opened)
    }).pipe(Effect.scoped)
  )

const snapshotGoal = (root: string, sessionId: string): unknown =>
  (JSON.parse(readFileSync(join(root, "sessions", sessionId, "goals.json"), "utf8")) as { readonly goal: unknown }).goal

describe("the goal sessions of a host", () => {
  it("closes the least recently used idle session past its limit, leaving its goals.json current", async () => {
    const root = join(mkdtempSync(join(tmpdir(), "armory-sessions-")), "goals")
    await withSessions(root, 2, (sessions, opened) =>
      Effect.gen(function* () {
        yield* sessions.use("a", (store) => store.set({ objective: "ship a" }))
        yield* sessions.use("a", (store) => store.checkpoint({ summary: "started" }))
        yield* sessions.use("b", (store) => store.set({ objective: "ship b" }))
        yield* sessions.use("a", (store) => store.status())
        // A third session closes "b", the least recently used: closing brings its goals.json up to date.
        yield* sessions.use("c", (store) => store.set({ objective: "ship c" }))
        expect(snapshotGoal(root, "b")).toMatchObject({ objective: "ship b" })
        // "b" opens again on its next use, from its files.
        expect((yield* sessions.use("b", (store) => store.status())).goal?.objective).toBe("ship b")
        expect(opened).toEqual(["a", "b", "c", "b"])
      })
    )
  })

  it("does not keep a session that failed to open, so a repaired one opens on the next use", async () => {
    const root = join(mkdtempSync(join(tmpdir(), "armory-sessions-")), "goals")
    const directory = join(root, "sessions", "broken")
    mkdirSync(directory, { recursive: true })
    writeFileSync(join(directory, "ledger.jsonl"), "{ not json\n")
    await withSessions(root, 4, (sessions) =>
      Effect.gen(function* () {
        const failed = yield* Effect.flip(sessions.use("broken", (store) => store.status()))
        expect(failed._tag).toBe("MalformedState")
        writeFileSync(join(directory, "ledger.jsonl"), "")
        expect((yield* sessions.use("broken", (store) => store.status())).goal).toBeNull()
      })
    )
  })

  it("answers a client's calls through the kept session, refusing what the store refuses", async () => {
    const root = join(mkdtempSync(join(tmpdir(), "armory-sessions-")), "goals")
    await withSessions(root, 4, (sessions) =>
      Effect.promise(async () => {
        const client = sessions.client("work")
        expect(client.directory).toBe(join(root, "sessions", "work"))
        await client.set({ objective: "ship work" })
        await expect(client.complete({})).rejects.toMatchObject({ _tag: "GateRefused" })
        expect((await sessions.client("work").status()).goal?.objective).toBe("ship work")
      })
    )
  })
})
