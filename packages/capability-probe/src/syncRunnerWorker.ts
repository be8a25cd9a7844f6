// The worker thread behind `probeDriverSync`: it runs one request with the same runner as the async
// probe and answers on the port it was given, waking the caller blocked on the signal.
import type { MessagePort } from "node:worker_threads"
import { workerData } from "node:worker_threads"
import { superviseRun } from "./ProcessGroup.js"
import type { RunRequest } from "./RunCommand.js"

const { port, signal, request } = workerData as { readonly port: MessagePort; readonly signal: Int32Array; readonly request: RunRequest }

const answer = (message: unknown) => {
  port.postMessage(message)
  Atomics.store(signal, 0, 1)
  Atomics.notify(signal, 0)
}

const failureCode = (error: unknown): string => {
  const code = typeof error === "object" && error !== null && "code" in error ? error.code : undefined
  return typeof code === "string" ? code : error instanceof Error ? error.name : "Error"
}

superviseRun(request).then(
  (outcome) => answer({ outcome }),
  (error: unknown) => answer({ failure: failureCode(error) })
)
