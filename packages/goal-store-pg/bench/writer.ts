// One of the benchmark's writer processes: opens the session, warms up on a session of its own (an
// agent is a long-lived process, so the measured writes run warm), waits for "go", writes, reports.
import { openGoalStore } from "@armory/goal-store"
import { openPgGoalStore } from "@armory/goal-store-pg"

const [backend, where, count, schema] = process.argv.slice(2)
const open = (sessionId: string) =>
  backend === "pg"
    ? openPgGoalStore({ databaseUrl: where ?? "", schema, sessionId, maxConnections: 1 })
    : openGoalStore({ root: where, sessionId })
const warm = await open(`warm-${process.pid}`)
await warm.set({ objective: "Warm up" })
for (let index = 0; index < 100; index++) await warm.checkpoint({ summary: `warm ${index}` })
if ("close" in warm) await warm.close()
const store = await open("writers")
process.once("message", async () => {
  for (let index = 0; index < Number(count); index++) await store.checkpoint({ summary: `pid ${process.pid} write ${index}` })
  process.send?.("done", () => process.exit(0))
})
process.send?.("ready")
