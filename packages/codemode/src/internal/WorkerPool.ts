import { availableParallelism } from "node:os"
import { Worker } from "node:worker_threads"
import {
  type CallAnswer,
  type CallOutcome,
  decodeCalls,
  encodeAnswers,
  type FromWorker,
  type Limits,
  type SandboxOutcome,
  type ToolCall,
  type ToWorker
} from "./Protocol.js"

/** How long past its deadline a worker may take to report before it is terminated. */
const BACKSTOP_GRACE_MS = 1_000

/**
 * The worker is resolved through the package's own name, so it is found both from this package's
 * files and from a host that bundled them into a single file.
 */
const workerUrl = () => new URL(import.meta.resolve("@armory/codemode/worker"))

/**
 * The answer to a call whose dispatch itself failed, named like the dispatcher's internal tool
 * errors. The guest's call is answered either way, so it does not wait for the deadline.
 */
const DISPATCH_FAILED: CallOutcome = {
  ok: false,
  error: { _tag: "InternalToolError", message: "internal tool error [dispatch]", fields: {} }
}

const idle: Array<Worker> = []
const maxIdle = Math.max(1, availableParallelism())
let nextRunId = 0

const spawn = (): Worker => {
  const worker = new Worker(workerUrl())
  worker.on("error", () => undefined)
  worker.on("exit", () => {
    const index = idle.indexOf(worker)
    if (index !== -1) idle.splice(index, 1)
  })
  return worker
}

/** An idle worker waits unreferenced, so it never keeps the host process alive. */
const release = (worker: Worker) => {
  if (idle.length < maxIdle) {
    worker.unref()
    idle.push(worker)
  } else {
    void worker.terminate()
  }
}

export interface RunInWorker {
  readonly code: string
  readonly globals: ReadonlyArray<string>
  readonly limits: Limits
  /** A call it can answer at once (a refusal) is answered synchronously, without a promise per call. */
  readonly onCall: (call: ToolCall) => CallOutcome | Promise<CallOutcome>
  readonly signal?: AbortSignal | undefined
}

/**
 * Runs one execution on a worker of its own. The worker enforces the deadline itself; should it
 * not report within a grace period after the deadline, it is terminated and the run is a timeout.
 */
export const runInWorker = (request: RunInWorker): Promise<SandboxOutcome> =>
  new Promise((resolve) => {
    const worker = idle.pop() ?? spawn()
    const runId = nextRunId++
    let settled = false
    worker.ref()

    const post = (message: ToWorker) => {
      if (!settled) worker.postMessage(message, [])
    }

    const end = (outcome: SandboxOutcome, reusable: boolean) => {
      if (settled) return
      settled = true
      clearTimeout(backstop)
      worker.off("message", onMessage)
      worker.off("error", onError)
      worker.off("exit", onExit)
      request.signal?.removeEventListener("abort", onAbort)
      if (reusable) release(worker)
      else void worker.terminate()
      resolve(outcome)
    }

    // Answers go back in batches: all at once when no call is left running (a burst of fast calls
    // costs one message and one guest turn), otherwise those ready by the next turn of the event loop.
    let answers: Array<CallAnswer> = []
    let running = 0
    let flushScheduled = false
    const flush = () => {
      flushScheduled = false
      if (answers.length === 0) return
      post({ type: "settle", runId, answers: encodeAnswers(answers) })
      answers = []
    }
    const answer = (callId: number, outcome: CallOutcome) => {
      running--
      answers.push({ callId, outcome })
      if (running === 0) flush()
      else if (!flushScheduled) {
        flushScheduled = true
        setImmediate(flush)
      }
    }

    const onMessage = (message: FromWorker) => {
      if (message.runId !== runId) return
      if (message.type === "done") return end(message.outcome, true)
      let calls: ReadonlyArray<ToolCall>
      try {
        calls = decodeCalls(message.calls)
      } catch (error) {
        return crashed(error instanceof Error ? error.message : String(error))
      }
      running += calls.length
      for (const call of calls) {
        let outcome: CallOutcome | Promise<CallOutcome>
        try {
          outcome = request.onCall(call)
        } catch {
          outcome = DISPATCH_FAILED
        }
        if (outcome instanceof Promise) {
          void outcome.then(
            (answered) => answer(call.callId, answered),
            () => answer(call.callId, DISPATCH_FAILED)
          )
        } else answer(call.callId, outcome)
      }
    }
    const crashed = (message: string) =>
      end({ status: "error", error: { _tag: "SandboxCrashed", message }, logs: [], truncated: false }, false)
    const onError = (error: unknown) => crashed(`the sandbox worker failed: ${error instanceof Error ? error.message : String(error)}`)
    const onExit = (code: number) => crashed(`the sandbox worker exited with code ${code}`)
    const onAbort = () => post({ type: "cancel", runId })

    const backstop = setTimeout(
      () =>
        end(
          {
            status: "timeout",
            error: {
              _tag: "Timeout",
              message: `the execution exceeded its ${request.limits.timeoutMs} ms time limit and its sandbox was terminated`
            },
            logs: [],
            truncated: false
          },
          false
        ),
      request.limits.timeoutMs + BACKSTOP_GRACE_MS
    )

    worker.on("message", onMessage)
    worker.on("error", onError)
    worker.on("exit", onExit)
    worker.postMessage({
      type: "run",
      runId,
      code: request.code,
      globals: request.globals,
      limits: request.limits
    } satisfies ToWorker, [])
    if (request.signal?.aborted === true) onAbort()
    else request.signal?.addEventListener("abort", onAbort, { once: true })
  })
