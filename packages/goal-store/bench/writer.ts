// One of the benchmark's writer processes: opens the session, waits for "go", writes, reports.
import { openGoalStore } from "@armory/goal-store"

const [root, count] = process.argv.slice(2)
const store = await openGoalStore({ root })
process.once("message", async () => {
  for (let index = 0; index < Number(count); index++) await store.checkpoint({ summary: `pid ${process.pid} write ${index}` })
  process.send?.("done", () => process.exit(0))
})
process.send?.("ready")
