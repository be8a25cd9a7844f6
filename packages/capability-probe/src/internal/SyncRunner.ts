import { MessageChannel, receiveMessageOnPort, Worker } from "node:worker_threads"
import type { RunOutcome, RunRequest } from "../RunCommand.js"

/** The worker module, found through the package's own exports so that it resolves wherever the package is installed or bundled from. */
const workerModule = () => import.meta.resolve("@armory/capability-probe/sync-runner-worker")

// A fixed bootstrap imports the module, so that a module that fails to load still answers (with its
// error code) instead of leaving the caller blocked until the deadline.
const BOOTSTRAP = `
const { workerData } = require("node:worker_threads")
import(workerData.module).catch((error) => {
  workerData.port.postMessage({ failure: String((error && (error.code || error.name)) || "Error") })
  Atomics.store(workerData.signal, 0, 1)
  Atomics.notify(workerData.signal, 0)
})
`

// Worker start-up and cleanup verification on top of the run's own timeout.
const ANSWER_MARGIN_MS = 10_000

/** The runner's outcome, or the error code that kept it from producing one. */
export type SyncRunnerAnswer = { readonly outcome: RunOutcome } | { readonly failure: string }

/**
 * Runs a request to completion while the calling thread waits: the async runner (`superviseRun`)
 * works in a worker thread and the caller blocks on `Atomics.wait` until it answers.
 */
export const superviseRunSync = (request: RunRequest): SyncRunnerAnswer => {
  const { port1, port2 } = new MessageChannel()
  const signal = new Int32Array(new SharedArrayBuffer(4))
  const worker = new Worker(BOOTSTRAP, {
    eval: true,
    workerData: { module: workerModule(), port: port2, signal, request },
    transferList: [port2],
    stdout: true,
    stderr: true
  })
  try {
    const waited = Atomics.wait(signal, 0, 0, request.timeoutMs + ANSWER_MARGIN_MS)
    const message = receiveMessageOnPort(port1)?.message as { outcome?: RunOutcome; failure?: string } | undefined
    if (message?.outcome !== undefined) return { outcome: message.outcome }
    return { failure: message?.failure ?? (waited === "timed-out" ? "ETIMEDOUT" : "ENOANSWER") }
  } finally {
    port1.close()
    void worker.terminate()
  }
}
