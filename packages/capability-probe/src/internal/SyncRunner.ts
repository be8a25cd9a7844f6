import { MessageChannel, receiveMessageOnPort, Worker } from "node:worker_threads"
import { superviseRun } from "../ProcessGroup.js"
import type { RunOutcome, RunRequest } from "../RunCommand.js"

// The worker evaluates the runner's source inside a try so that even a source the host's
// transpiler made unusable comes back as an answer instead of leaving the caller waiting.
const WORKER_SOURCE = `
const { workerData } = require("node:worker_threads")
const { port, signal, source, request } = workerData
const answer = (message) => {
  port.postMessage(message)
  Atomics.store(signal, 0, 1)
  Atomics.notify(signal, 0)
}
try {
  const run = (0, eval)("(" + source + ")")
  run(request).then(
    (outcome) => answer({ outcome }),
    (error) => answer({ failure: String((error && (error.code || error.name)) || "Error") })
  )
} catch (error) {
  answer({ failure: String((error && error.name) || "Error") })
}
`

// Worker start-up and cleanup verification on top of the run's own timeout.
const ANSWER_MARGIN_MS = 10_000

/** The runner's outcome, or the error code that kept it from producing one. */
export type SyncRunnerAnswer = { readonly outcome: RunOutcome } | { readonly failure: string }

/**
 * Runs {@link superviseRun} to completion while the calling thread waits: the async runner works
 * in a worker thread and the caller blocks on `Atomics.wait` until it answers.
 */
export const superviseRunSync = (request: RunRequest): SyncRunnerAnswer => {
  const { port1, port2 } = new MessageChannel()
  const signal = new Int32Array(new SharedArrayBuffer(4))
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { port: port2, signal, source: superviseRun.toString(), request },
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
