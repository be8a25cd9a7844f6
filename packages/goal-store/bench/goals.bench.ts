import { fork } from "node:child_process"
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import { runBench } from "@armory/bench"
import { LEDGER_SCHEMA, type LedgerEvent, openGoalStore } from "@armory/goal-store"
import { encodeLedgerLine, fold, scanLedger } from "@armory/goal-store/backend"
import { Result } from "effect"

const temp = (name: string) => mkdtempSync(join(tmpdir(), `armory-goals-bench-${name}-`))

/** The anchor: the same event appended to SQLite in WAL mode with synchronous=FULL (fsync per commit). */
const sqliteLedger = () => {
  const database = new DatabaseSync(join(temp("sqlite"), "goals.db"))
  database.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;")
  database.exec("CREATE TABLE events (seq INTEGER PRIMARY KEY, kind TEXT NOT NULL, payload TEXT NOT NULL)")
  database.exec("CREATE TABLE snapshot (id INTEGER PRIMARY KEY CHECK (id = 1), state TEXT NOT NULL)")
  return database
}

const criteria = Array.from({ length: 20 }, (_, index) => ({
  id: `c${index + 1}`,
  scenario: `scenario ${index + 1}`,
  qaChannel: "cli" as const,
  testRef: `test/${index + 1}.test.ts`
}))

/** A realistic long-lived ledger: a goal with 20 criteria, then checkpoints, evidence and status moves. */
const syntheticEvents = (count: number): Array<LedgerEvent> => {
  const at = "2026-01-01T00:00:00.000Z"
  const events: Array<LedgerEvent> = [
    { schema: LEDGER_SCHEMA, seq: 1, at, kind: "goal_created", goal: { id: "g1", objective: "Long-running goal", criteria } }
  ]
  let evidence = 0
  let checkpoint = 0
  for (let seq = 2; seq <= count; seq++) {
    const criterionId = `c${(seq % 20) + 1}`
    if (seq % 3 === 0) {
      evidence += 1
      events.push({
        schema: LEDGER_SCHEMA,
        seq,
        at,
        kind: "evidence_added",
        evidence: { id: `e${evidence}`, criterionId, kind: seq % 2 === 0 ? "green" : "scenario", ref: `runs/${seq}`, attempt: 1 }
      })
    } else if (seq % 7 === 0) {
      events.push({ schema: LEDGER_SCHEMA, seq, at, kind: "criterion_status", criterionId, status: "in_progress" })
    } else {
      checkpoint += 1
      events.push({ schema: LEDGER_SCHEMA, seq, at, kind: "checkpoint", checkpoint: { id: `k${checkpoint}`, summary: `step ${seq}`, activeCriterion: criterionId } })
    }
  }
  return events
}

// Single durable mutation.
const mutationRoot = temp("mutation")
const mutationStore = await openGoalStore({ root: mutationRoot })
await mutationStore.set({ objective: "Benchmark", criteria: criteria.slice(0, 3) })
const mutationDb = sqliteLedger()
const insert = mutationDb.prepare("INSERT INTO events (seq, kind, payload) VALUES (?, ?, ?)")
let anchorSeq = 0
let oursWrites = 0

// Status read of a goal with some history.
const statusRoot = temp("status")
const statusStore = await openGoalStore({ root: statusRoot })
await statusStore.set({ objective: "Benchmark", criteria })
for (let index = 0; index < 200; index++) await statusStore.checkpoint({ summary: `step ${index}`, activeCriterion: "c1" })
const statusDb = sqliteLedger()
statusDb.prepare("INSERT INTO snapshot (id, state) VALUES (1, ?)").run(JSON.stringify(await statusStore.status()))
const selectSnapshot = statusDb.prepare("SELECT state FROM snapshot WHERE id = 1")

// Cold rebuild of 100,000 events, generated once.
const rebuildRoot = temp("rebuild")
mkdirSync(rebuildRoot, { recursive: true })
const events = syntheticEvents(100_000)
writeFileSync(join(rebuildRoot, "ledger.jsonl"), events.map(encodeLedgerLine).join(""))
const rebuildDb = sqliteLedger()
rebuildDb.exec("BEGIN")
const bulk = rebuildDb.prepare("INSERT INTO events (seq, kind, payload) VALUES (?, ?, ?)")
for (const event of events) bulk.run(event.seq, event.kind, JSON.stringify(event))
rebuildDb.exec("COMMIT")
const selectAll = rebuildDb.prepare("SELECT payload FROM events ORDER BY seq")

const report = await runBench({
  name: "goal-store",
  anchor: "node:sqlite (WAL, synchronous=FULL)",
  timeMs: 1500,
  warmupMs: 200,
  cases: [
    {
      name: "single durable mutation (lock, append + fdatasync, snapshot when due)",
      ours: async () => {
        oursWrites += 1
        await mutationStore.checkpoint({ summary: `write ${oursWrites}` })
      },
      anchor: () => {
        anchorSeq += 1
        insert.run(anchorSeq, "checkpoint", JSON.stringify({ schema: LEDGER_SCHEMA, seq: anchorSeq, kind: "checkpoint", summary: `write ${anchorSeq}` }))
      },
      target: { medianMs: 2, ratio: 0.5 }
    },
    {
      name: "status read (20 criteria, 200 checkpoints)",
      ours: () => statusStore.status(),
      anchor: () => JSON.parse((selectSnapshot.get() as { state: string }).state),
      target: { medianMs: 10 }
    },
    {
      name: "cold rebuild of 100,000 events (open = read + validate + fold)",
      ours: () => openGoalStore({ root: rebuildRoot }),
      anchor: () => {
        const rows = selectAll.all() as Array<{ payload: string }>
        const folded = fold(rows.map((row) => JSON.parse(row.payload) as LedgerEvent))
        if (Result.isFailure(folded)) throw new Error(folded.failure.reason)
      },
      target: { medianMs: 300 }
    }
  ]
})

const formatMs = (ms: number) => (ms >= 1 ? `${ms.toFixed(2)} ms` : `${(ms * 1000).toFixed(0)} µs`)
for (const row of report.cases) {
  process.stdout.write(
    `${row.case}: p99 ours ${formatMs(row.ours.p99Ms)}, anchor ${formatMs(row.anchor.p99Ms)} (${row.ours.samples} / ${row.anchor.samples} samples)\n`
  )
}

/** Eight writer processes on one session, each writing 250 mutations once all are ready. */
const writersRoot = temp("writers")
await (await openGoalStore({ root: writersRoot })).set({ objective: "Eight writers" })
const writers = Array.from({ length: 8 }, () =>
  fork(join(import.meta.dirname, "writer.ts"), [writersRoot, "250"], { stdio: ["ignore", "inherit", "inherit", "ipc"] })
)
await Promise.all(writers.map((writer) => new Promise((resolve) => writer.once("message", resolve))))
const started = performance.now()
const finished = Promise.all(writers.map((writer) => new Promise((resolve) => writer.once("message", resolve))))
for (const writer of writers) writer.send("go")
await finished
const seconds = (performance.now() - started) / 1000
const ledgerFile = join(writersRoot, "ledger.jsonl")
const scan = scanLedger(readFileSync(ledgerFile), ledgerFile)
const committed = Result.isSuccess(scan) ? scan.success.events.filter((event) => event.kind === "checkpoint").length : -1
const perSecond = 2000 / seconds
process.stdout.write(
  `eight writer processes, one session: 2000 mutations in ${seconds.toFixed(2)} s = ${perSecond.toFixed(0)} mutations/s ` +
    `(target ≥ 200: ${perSecond >= 200 ? "met" : "MISSED"}); committed ${committed} of 2000 (${committed === 2000 ? "zero loss" : "LOSS"})\n`
)
