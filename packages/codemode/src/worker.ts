/**
 * The sandbox thread: executions run here so that a guest spinning on the CPU never blocks the
 * host's event loop. The host sends `run`, `settle` and `cancel`; this thread answers with `calls`
 * and `done`. One execution at a time per worker; the QuickJS module is compiled once per worker.
 */
import { setPriority } from "node:os"
import { parentPort } from "node:worker_threads"
import type { Execution } from "./internal/Sandbox.js"
import { createRealm, makeRealmStock, startExecution } from "./internal/Sandbox.js"
import { loadQuickJs } from "./internal/QuickJs.js"
import type { FromWorker, ToWorker } from "./internal/Protocol.js"

const port = parentPort
if (port === null) throw new Error("@armory/codemode/worker must run as a worker thread")

// On Linux a thread has its own nice value, so this lowers only the sandbox thread: on a busy
// machine a spinning guest yields the CPU to the host's event loop. Elsewhere it would renice the
// whole host process, so it is left alone.
if (process.platform === "linux") setPriority(10)

const module = await loadQuickJs()
const executions = new Map<number, Execution>()
const send = (message: FromWorker) => port.postMessage(message)

const realms = makeRealmStock(() => createRealm(module))
// Only while no execution runs here: building a realm takes the thread for a while, and a running
// execution's tool answers must not wait behind it.
const refillRealms = () => {
  if (executions.size === 0) realms.refill()
}
refillRealms()

port.on("message", (message: ToWorker) => {
  if (message.type === "run") {
    const { runId } = message
    let reported = false
    const execution = startExecution(realms.take(), message.code, message.globals, message.limits, {
      requestCalls: (calls) => send({ type: "calls", runId, calls }),
      done: (outcome) => {
        reported = true
        executions.delete(runId)
        send({ type: "done", runId, outcome })
        // Once the used realm is disposed, and unless a new run arrived first.
        setImmediate(refillRealms)
      }
    })
    // A run that finished while starting has already reported and must not be kept.
    if (!reported) executions.set(runId, execution)
  } else if (message.type === "settle") {
    executions.get(message.runId)?.settle(message.answers)
  } else {
    executions.get(message.runId)?.cancel()
  }
})
