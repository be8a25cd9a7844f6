/**
 * The sandbox thread: executions run here so that a guest spinning on the CPU never blocks the
 * host's event loop. The host hands it the compiled QuickJS module when it starts, then sends `run`,
 * `settle` and `cancel`; this thread answers with `calls` and `done`. One execution at a time per
 * worker, each on a QuickJS instance of its own: a fresh linear memory, capped for the execution's
 * memory limit and dropped when it ends, so nothing of one execution is ever readable by the next.
 */
import { setPriority } from "node:os"
import { parentPort, workerData } from "node:worker_threads"
import type { FromWorker, RunRequest, SandboxError, ToWorker } from "./internal/Protocol.js"
import type { Execution } from "./internal/Sandbox.js"
import { buildRealm, makeRealmStock, startExecution } from "./internal/Sandbox.js"
import { Wasm } from "./internal/Wasm.js"

const port = parentPort
const wasmModule: unknown = Reflect.get(Object(workerData), "wasmModule")
const firstLimit: unknown = Reflect.get(Object(workerData), "memoryLimitBytes")
const readySignal: unknown = Reflect.get(Object(workerData), "readySignal")
if (port === null || !(wasmModule instanceof Wasm.Module) || !(readySignal instanceof Int32Array)) {
  throw new Error("@armory/codemode/worker runs as a worker thread started by the sandbox pool, with the compiled QuickJS module")
}

// On Linux a thread has its own nice value, so this lowers only the sandbox thread: on a busy
// machine a spinning guest yields the CPU to the host's event loop. Elsewhere it would renice the
// whole host process, so it is left alone.
if (process.platform === "linux") setPriority(10)

const executions = new Map<number, Execution>()
const send = (message: FromWorker) => port.postMessage(message)

const realms = makeRealmStock((memoryLimitBytes) => buildRealm(wasmModule, memoryLimitBytes))
/** The memory limit of the last run, which the next realm is built for; a spare worker is told one to start with. */
let lastLimit = typeof firstLimit === "number" ? firstLimit : undefined
let runsStarted = 0
// Only while no execution runs here: building a realm takes the thread for a while, and a running
// execution's tool answers must not wait behind it. The host sees when it is built, so that it
// hands the next run to a worker that can start it at once.
const refillRealms = () => {
  if (executions.size !== 0 || lastLimit === undefined) return
  const before = runsStarted
  void realms.refill(lastLimit).then(() => {
    if (runsStarted === before) Atomics.store(readySignal, 0, before)
  })
}

const stopped = (runId: number, error: SandboxError) =>
  send({ type: "done", runId, outcome: { status: "error", error, logs: [], truncated: false, memoryBytes: 0 } })

/** Runs waiting for their realm; a cancel that arrives meanwhile is noted here. */
const starting = new Map<number, { cancelled: boolean }>()

/** Starts a run once its realm is ready. */
const start = async (message: RunRequest) => {
  const { runId } = message
  const pending = { cancelled: false }
  runsStarted++
  starting.set(runId, pending)
  lastLimit = message.limits.memoryLimitBytes
  const taken = await realms.take(message.limits.memoryLimitBytes).then(
    (realm) => ({ realm }),
    (error: unknown) => ({ error: error instanceof Error ? error.message : String(error) })
  )
  starting.delete(runId)
  if ("error" in taken) return stopped(runId, { _tag: "SandboxCrashed", message: `the sandbox could not start: ${taken.error}`, raisedBy: "host" })
  if (pending.cancelled) {
    return stopped(runId, { _tag: "Cancelled", message: "the host cancelled the execution", raisedBy: "host" })
  }
  let reported = false
  const execution = startExecution(
    taken.realm,
    message.code,
    message.globals,
    message.limits,
    {
      requestCalls: (calls) => send({ type: "calls", runId, calls }),
      done: (outcome) => {
        reported = true
        executions.delete(runId)
        send({ type: "done", runId, outcome })
        // Once the report is on its way, and unless a new run arrived first.
        setImmediate(refillRealms)
      }
    },
    message.deadline
  )
  // A run that finished while starting has already reported and must not be kept.
  if (!reported) executions.set(runId, execution)
}

port.on("message", (message: ToWorker) => {
  if (message.type === "run") void start(message)
  else if (message.type === "settle") executions.get(message.runId)?.settle(message.answers)
  else {
    const pending = starting.get(message.runId)
    if (pending !== undefined) pending.cancelled = true
    else executions.get(message.runId)?.cancel()
  }
})

refillRealms()
