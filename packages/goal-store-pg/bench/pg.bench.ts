import { fork } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { runBench } from "@armory/bench"
import { exportFileLedger, openGoalStore } from "@armory/goal-store"
import { openPgGoalDatabase } from "@armory/goal-store-pg"
import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"
import { SqlClient } from "effect/sql"

// The team database the numbers are for; the benchmark works in a schema of its own and drops it.
const databaseUrl = process.env["ARMORY_GOALS_DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/test"
const schema = `armory_goals_bench_${process.pid}`
const temp = (name: string) => mkdtempSync(join(tmpdir(), `armory-goals-pg-bench-${name}-`))

const criteria = Array.from({ length: 20 }, (_, index) => ({ scenario: `scenario ${index + 1}`, qaChannel: "cli" as const, testRef: `test/${index + 1}.test.ts` }))

const line = (name: string, run: { perSecond: number; seconds: number; committed: number }) =>
  `${name}: 2000 mutations in ${run.seconds.toFixed(2)} s = ${run.perSecond.toFixed(0)} mutations/s; committed ${run.committed} of 2000 (${run.committed === 2000 ? "zero loss" : "LOSS"})`

const database = await openPgGoalDatabase({ databaseUrl, schema })
try {
  // Single durable mutation: one transaction (read, decide, insert, commit) against one append + fsync.
  const pgMutation = await database.open({ sessionId: "mutation" })
  await pgMutation.set({ objective: "Benchmark", criteria: criteria.slice(0, 3) })
  const fileMutation = await openGoalStore({ root: temp("mutation") })
  await fileMutation.set({ objective: "Benchmark", criteria: criteria.slice(0, 3) })
  let writes = 0

  // Reads of a goal with some history.
  const pgStatus = await database.open({ sessionId: "status" })
  const statusRoot = temp("status")
  const fileStatus = await openGoalStore({ root: statusRoot })
  await pgStatus.set({ objective: "Benchmark", criteria })
  await fileStatus.set({ objective: "Benchmark", criteria })
  for (let index = 0; index < 200; index++) {
    await pgStatus.checkpoint({ summary: `step ${index}`, activeCriterion: "c1" })
    await fileStatus.checkpoint({ summary: `step ${index}`, activeCriterion: "c1" })
  }

  await runBench({
    name: "goal-store-pg",
    anchor: "@armory/goal-store file store (append + fsync per event)",
    timeMs: 1500,
    warmupMs: 200,
    cases: [
      {
        name: "single durable mutation (pg: one transaction, read + decide + insert + commit)",
        ours: async () => {
          writes += 1
          await pgMutation.checkpoint({ summary: `write ${writes}` })
        },
        anchor: async () => {
          writes += 1
          await fileMutation.checkpoint({ summary: `write ${writes}` })
        },
        target: { medianMs: 5 }
      },
      {
        name: "status read (20 criteria, 200 checkpoints)",
        ours: () => pgStatus.status(),
        anchor: () => fileStatus.status(),
        target: { medianMs: 5 }
      },
      {
        name: "open a session and export its ledger (202 events)",
        ours: async () => (await database.open({ sessionId: "status" })).events(),
        anchor: () => Effect.runPromise(exportFileLedger({ root: statusRoot })),
        target: { medianMs: 20 }
      }
    ]
  })

  /** Eight writer processes on one session, each writing 250 mutations once all are warm and ready. */
  const writers = async (backend: "pg" | "file") => {
    const where = backend === "pg" ? databaseUrl : temp("writers")
    const setup = backend === "pg" ? await database.open({ sessionId: "writers" }) : await openGoalStore({ root: where, sessionId: "writers" })
    await setup.set({ objective: "Eight writers" })
    const children = Array.from({ length: 8 }, () =>
      fork(join(import.meta.dirname, "writer.ts"), [backend, where, "250", schema], { stdio: ["ignore", "inherit", "inherit", "ipc"] })
    )
    await Promise.all(children.map((child) => new Promise((resolve) => child.once("message", resolve))))
    const started = performance.now()
    const finished = Promise.all(children.map((child) => new Promise((resolve) => child.once("message", resolve))))
    for (const child of children) child.send("go")
    await finished
    const seconds = (performance.now() - started) / 1000
    const committed = (await setup.status()).goal?.checkpoints.length ?? -1
    return { perSecond: 2000 / seconds, seconds, committed }
  }

  const pg = await writers("pg")
  const file = await writers("file")
  process.stdout.write(
    `eight writer processes (warmed up by 100 writes each), one session\n` +
      `  ${line("pg  ", pg)} (target ≥ 500: ${pg.perSecond >= 500 ? "met" : "MISSED"})\n` +
      `  ${line("file", file)}\n`
  )
} finally {
  await database.close()
  await Effect.runPromise(
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* sql`DROP SCHEMA ${sql(schema)} CASCADE`
    }).pipe(Effect.provide(PgClient.layer({ url: Redacted.make(databaseUrl), maxConnections: 1 })))
  )
}
