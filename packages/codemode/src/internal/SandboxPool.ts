import { existsSync } from "node:fs"
import { availableParallelism } from "node:os"
import { Worker } from "node:worker_threads"
import {
  type CallAnswer,
  type CallOutcome,
  decodeCalls,
  encodeAnswers,
  type FromWorker,
  type Limits,
  newReadySignal,
  type SandboxError,
  type SandboxOutcome,
  type ToolCall,
  type ToWorker
} from "./Protocol.js"
import { compileQuickJs } from "./QuickJs.js"

/** How long past its deadline a worker may take to report before it is terminated. */
const BACKSTOP_GRACE_MS = 1_000

/**
 * A worker whose last execution grew its instance's memory past this ends instead of waiting for
 * the next: the instance is gone either way, but the thread's own high-water mark goes only with it.
 */
const RETIRE_AFTER_BYTES = 32 * 1024 * 1024

/** The name under which a bundle that includes code mode ships the sandbox worker beside itself. */
const BUNDLED_WORKER_FILE = "codemode-worker.js"

/**
 * The worker beside this module when a bundle shipped it there (the `armory` CLI, which installs no
 * `@armory/codemode`); otherwise the package's own, resolved through its name, so it is found both
 * from this package's files and from a host that bundled them into a single file.
 */
const workerUrl = (): URL => {
  const bundled = new URL(`./${BUNDLED_WORKER_FILE}`, import.meta.url)
  return existsSync(bundled) ? bundled : new URL(import.meta.resolve("@armory/codemode/worker"))
}

/**
 * The answer to a call whose dispatch itself failed, named like the dispatcher's internal tool
 * errors. The guest's call is answered either way, so it does not wait for the deadline.
 */
const DISPATCH_FAILED: CallOutcome = {
  ok: false,
  error: { _tag: "InternalToolError", message: "internal tool error [dispatch]", fields: {} }
}

export interface SandboxPoolOptions {
  /** How many executions run at once, each on a worker thread of its own. Default: `availableParallelism()`. */
  readonly maxWorkers?: number | undefined
}

export interface SandboxRun {
  readonly code: string
  readonly globals: ReadonlyArray<string>
  readonly limits: Limits
  /** When the execution must be over (`Date.now()` time); time spent waiting for a worker counts. */
  readonly deadline: number
  /** A call it can answer at once (a refusal) is answered synchronously, without a promise per call. */
  readonly onCall: (call: ToolCall) => CallOutcome | Promise<CallOutcome>
  readonly signal?: AbortSignal | undefined
}

export interface SandboxPool {
  /** Runs one execution on a free worker, after those queued before it. */
  readonly run: (request: SandboxRun) => Promise<SandboxOutcome>
  /** Cancels what is queued or running and ends every worker; resolves once they have exited. */
  readonly close: () => Promise<void>
}

const stoppedBy = (error: SandboxError): SandboxOutcome => ({ status: "error", error, logs: [], truncated: false, memoryBytes: 0 })

const CANCELLED = (why: string) => stoppedBy({ _tag: "Cancelled", message: why, raisedBy: "host" })

const timedOut = (timeoutMs: number, detail: string): SandboxOutcome => ({
  status: "timeout",
  error: { _tag: "Timeout", message: `the execution exceeded its ${timeoutMs} ms time limit ${detail}`, raisedBy: "host" },
  logs: [],
  truncated: false,
  memoryBytes: 0
})

interface Queued {
  readonly request: SandboxRun
  readonly resolve: (outcome: SandboxOutcome) => void
  readonly leave: () => void
}

/**
 * A bounded pool of sandbox workers with a FIFO queue. At most `maxWorkers` executions run at once;
 * the others wait their turn, and a wait that reaches the execution's deadline ends it as a timeout.
 * The QuickJS module is compiled once per process and handed to each worker; each execution gets a
 * fresh instance there. Idle workers never keep the host process alive, and `close` ends them all.
 */
export const makeSandboxPool = (options: SandboxPoolOptions = {}): SandboxPool => {
  const maxWorkers = options.maxWorkers ?? Math.max(1, availableParallelism())
  if (!Number.isSafeInteger(maxWorkers) || maxWorkers < 1) throw new RangeError(`maxWorkers must be a positive integer, got ${maxWorkers}`)
  const workers = new Set<Worker>()
  /** How many runs each worker was handed, and its `newReadySignal` slot. */
  const readiness = new Map<Worker, { dispatched: number; readonly signal: Int32Array }>()
  const isWarm = (worker: Worker) => {
    const state = readiness.get(worker)
    return state !== undefined && Atomics.load(state.signal, 0) === state.dispatched
  }
  const idle: Array<Worker> = []
  const running = new Map<Worker, (outcome: SandboxOutcome) => void>()
  const queue: Array<Queued> = []
  let starting = 0
  let closed = false
  let nextRunId = 0

  const forget = (worker: Worker) => {
    workers.delete(worker)
    readiness.delete(worker)
    const index = idle.indexOf(worker)
    if (index !== -1) idle.splice(index, 1)
  }

  /** A new worker, which starts by building a realm for `memoryLimitBytes`. */
  const spawn = async (memoryLimitBytes: number): Promise<Worker> => {
    const wasmModule = await compileQuickJs()
    // None of the host's Node options: a worker refuses many of them (`--input-type`, heap sizes), and
    // the sandbox needs none.
    const readySignal = newReadySignal()
    const worker = new Worker(workerUrl(), { workerData: { wasmModule, memoryLimitBytes, readySignal }, execArgv: [] })
    workers.add(worker)
    readiness.set(worker, { dispatched: 0, signal: readySignal })
    worker.on("error", () => undefined)
    worker.once("exit", () => forget(worker))
    return worker
  }

  /**
   * A worker to join the idle ones, started when a run found none of them with a realm built: under
   * back-to-back runs one worker builds its next realm while another runs, up to `maxWorkers`.
   */
  const addSpare = (memoryLimitBytes: number) => {
    starting++
    spawn(memoryLimitBytes).then(
      (spare) => {
        starting--
        if (closed) return void spare.terminate()
        spare.unref()
        idle.push(spare)
        pump()
      },
      () => {
        starting--
      }
    )
  }

  /**
   * The idle worker to run on: the one idle the longest among those with a realm built, else the one
   * idle the longest, which is building one.
   */
  const takeIdle = (memoryLimitBytes: number): Worker | undefined => {
    const warm = idle.findIndex(isWarm)
    if (warm !== -1) return idle.splice(warm, 1)[0]
    const worker = idle.shift()
    if (worker !== undefined && workers.size + starting < maxWorkers) addSpare(memoryLimitBytes)
    return worker
  }

  /** An idle worker waits unreferenced, so it never keeps the host process alive. */
  const release = (worker: Worker, retire: boolean) => {
    if (closed || retire) {
      forget(worker)
      void worker.terminate()
    } else {
      worker.unref()
      idle.push(worker)
    }
    pump()
  }

  const pump = () => {
    if (closed) return
    while (queue.length > 0 && (idle.length > 0 || workers.size + starting < maxWorkers)) {
      const next = queue.shift() as Queued
      next.leave()
      const worker = takeIdle(next.request.limits.memoryLimitBytes)
      if (worker !== undefined) {
        runOn(worker, next.request, next.resolve)
        continue
      }
      starting++
      spawn(next.request.limits.memoryLimitBytes).then(
        (spawned) => {
          starting--
          if (closed) {
            void spawned.terminate()
            next.resolve(CANCELLED("the sandbox pool closed"))
          } else runOn(spawned, next.request, next.resolve)
        },
        (error: unknown) => {
          starting--
          next.resolve(stoppedBy({ _tag: "SandboxCrashed", message: `the sandbox could not start: ${error instanceof Error ? error.message : String(error)}`, raisedBy: "host" }))
          pump()
        }
      )
    }
  }

  const runOn = (worker: Worker, request: SandboxRun, resolve: (outcome: SandboxOutcome) => void) => {
    const runId = nextRunId++
    let settled = false
    worker.ref()
    const state = readiness.get(worker)
    if (state !== undefined) state.dispatched++

    const post = (message: ToWorker) => {
      if (!settled) worker.postMessage(message, [])
    }

    const end = (outcome: SandboxOutcome, reusable: boolean) => {
      if (settled) return
      settled = true
      clearTimeout(backstop)
      running.delete(worker)
      worker.off("message", onMessage)
      worker.off("error", onError)
      worker.off("exit", onExit)
      request.signal?.removeEventListener("abort", onAbort)
      resolve(outcome)
      if (reusable) release(worker, outcome.memoryBytes > RETIRE_AFTER_BYTES)
      else {
        forget(worker)
        void worker.terminate()
        pump()
      }
    }

    // Answers go back in batches: all at once when no call is left running (a burst of fast calls
    // costs one message and one guest turn), otherwise those ready by the next turn of the event loop.
    let answers: Array<CallAnswer> = []
    let inFlight = 0
    let flushScheduled = false
    const flush = () => {
      flushScheduled = false
      if (answers.length === 0) return
      post({ type: "settle", runId, answers: encodeAnswers(answers) })
      answers = []
    }
    const answer = (callId: number, outcome: CallOutcome) => {
      inFlight--
      answers.push({ callId, outcome })
      if (inFlight === 0) flush()
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
      inFlight += calls.length
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
    const crashed = (message: string) => end(stoppedBy({ _tag: "SandboxCrashed", message, raisedBy: "host" }), false)
    const onError = (error: unknown) => crashed(`the sandbox worker failed: ${error instanceof Error ? error.message : String(error)}`)
    const onExit = (code: number) => crashed(`the sandbox worker exited with code ${code}`)
    const onAbort = () => post({ type: "cancel", runId })

    const backstop = setTimeout(
      () => end(timedOut(request.limits.timeoutMs, "and its sandbox was terminated"), false),
      Math.max(0, request.deadline - Date.now()) + BACKSTOP_GRACE_MS
    )

    running.set(worker, (outcome) => end(outcome, false))
    worker.on("message", onMessage)
    worker.on("error", onError)
    worker.on("exit", onExit)
    post({
      type: "run",
      runId,
      code: request.code,
      globals: request.globals,
      limits: request.limits,
      deadline: request.deadline
    })
    if (request.signal?.aborted === true) onAbort()
    else request.signal?.addEventListener("abort", onAbort, { once: true })
  }

  const run = (request: SandboxRun): Promise<SandboxOutcome> =>
    new Promise((resolve, reject) => {
      if (closed) return reject(new Error("the sandbox pool is closed"))
      if (request.signal?.aborted === true) return resolve(CANCELLED("the host cancelled the execution"))
      const leave = () => {
        clearTimeout(expiry)
        request.signal?.removeEventListener("abort", onAbort)
      }
      const drop = (outcome: SandboxOutcome) => {
        const index = queue.indexOf(entry)
        if (index === -1) return
        queue.splice(index, 1)
        leave()
        resolve(outcome)
      }
      const onAbort = () => drop(CANCELLED("the host cancelled the execution"))
      const expiry = setTimeout(
        () => drop(timedOut(request.limits.timeoutMs, `waiting for a sandbox (all ${maxWorkers} were busy)`)),
        Math.max(0, request.deadline - Date.now())
      )
      const entry: Queued = { request, resolve, leave }
      request.signal?.addEventListener("abort", onAbort, { once: true })
      queue.push(entry)
      pump()
    })

  const close = async (): Promise<void> => {
    if (closed) return
    closed = true
    for (const entry of queue.splice(0)) {
      entry.leave()
      entry.resolve(CANCELLED("the sandbox pool closed"))
    }
    for (const stop of running.values()) stop(CANCELLED("the sandbox pool closed"))
    await Promise.all([...workers].map((worker) => worker.terminate().then(() => undefined)))
    workers.clear()
    idle.length = 0
  }

  return { run, close }
}
