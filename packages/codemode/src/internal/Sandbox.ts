import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from "quickjs-emscripten-core"
import { PRELUDE } from "./Prelude.js"
import type { Limits, SandboxOutcome } from "./Protocol.js"

const MAX_LOG_LINE_CHARS = 2_000

/**
 * The hooks an execution reports through: tool calls go out a turn at a time, as the prelude wrote
 * them (see `CallsMessage`), and the outcome comes back once.
 */
export interface SandboxHooks {
  readonly requestCalls: (calls: string) => void
  readonly done: (outcome: SandboxOutcome) => void
}

/** A running execution: the host settles its tool calls or cancels it. */
export interface Execution {
  /** Hands the guest answers written by `encodeAnswers`. */
  readonly settle: (answers: string) => void
  readonly cancel: () => void
}

const stringArgument = (context: QuickJSContext, handle: QuickJSHandle | undefined): string | undefined =>
  handle !== undefined && context.typeof(handle) === "string" ? context.getString(handle) : undefined

/**
 * A fresh runtime and context with the prelude applied (`console` and `tools`), holding the prelude's
 * entry points. It serves exactly one execution, which points its console at its own log.
 */
export interface Realm {
  readonly runtime: QuickJSRuntime
  readonly context: QuickJSContext
  readonly run: QuickJSHandle
  readonly takeCalls: QuickJSHandle
  readonly settle: QuickJSHandle
  readonly listen: (onLog: (level: string, text: string) => void) => void
  readonly dispose: () => void
}

/**
 * Builds a realm. Nothing in it depends on the execution it will serve, so a worker builds the next
 * one while it waits; `seedBuiltinGlobals` builds the same realm to enumerate what the guest sees.
 */
export const createRealm = (module: QuickJSWASMModule): Realm => {
  const runtime = module.newRuntime()
  let built: QuickJSContext | undefined
  const owned: Array<QuickJSHandle> = []
  const dispose = () => {
    for (const handle of owned) if (handle.alive) handle.dispose()
    built?.dispose()
    runtime.dispose()
  }
  let onLog: ((level: string, text: string) => void) | undefined
  try {
    // Inside the `try`, so that a runtime whose context could not be built is disposed too.
    const context = runtime.newContext()
    built = context
    const log = context.newFunction("log", (level, text) => {
      onLog?.(stringArgument(context, level) ?? "log", stringArgument(context, text) ?? "")
    })
    owned.push(log)
    const prelude = context.unwrapResult(context.evalCode(PRELUDE, "prelude.js"))
    owned.push(prelude)
    const entryPoints = context.unwrapResult(context.callFunction(prelude, context.undefined, log))
    owned.push(entryPoints)
    const [run, takeCalls, settle] = [0, 1, 2].map((index) => {
      const handle = context.getProp(entryPoints, index)
      owned.push(handle)
      return handle
    })
    if (run === undefined || takeCalls === undefined || settle === undefined) throw new TypeError("the prelude returned no entry points")
    return {
      runtime,
      context,
      run,
      takeCalls,
      settle,
      listen: (listener) => {
        onLog = listener
      },
      dispose
    }
  } catch (error) {
    dispose()
    throw error
  }
}

/**
 * Keeps one realm built ahead of the execution that will take it. Building a realm (context,
 * intrinsics, compiling the prelude) is most of what a short execution costs and none of it depends
 * on the execution, so a worker refills the stock while it would otherwise wait. A stocked realm is
 * still fresh when taken: no code but the prelude has run in it.
 */
export const makeRealmStock = (build: () => Realm) => {
  let ready: Realm | undefined
  return {
    refill: (): void => {
      if (ready !== undefined) return
      try {
        ready = build()
      } catch {
        // `take` builds again, and a failure there reaches the host as the run's failure.
      }
    },
    take: (): Realm => {
      const realm = ready ?? build()
      ready = undefined
      return realm
    }
  }
}

/** The names on a fresh guest realm's `globalThis`, sorted. */
export const realmGlobalNames = (module: QuickJSWASMModule): ReadonlyArray<string> => {
  const realm = createRealm(module)
  try {
    const names = realm.context.unwrapResult(
      realm.context.evalCode("JSON.stringify(Object.getOwnPropertyNames(globalThis))")
    )
    const text = realm.context.getString(names)
    names.dispose()
    const parsed: unknown = JSON.parse(text)
    if (!Array.isArray(parsed)) throw new TypeError("the guest realm listed no globals")
    return parsed.map(String).toSorted()
  } finally {
    realm.dispose()
  }
}

/** Reads `name` and `message` of an engine error (interrupt, out of memory) as plain strings. */
const describeFault = (context: QuickJSContext, error: QuickJSHandle): { name: string; message: string } => {
  const read = (key: string) => {
    const value = context.getProp(error, key)
    const text = stringArgument(context, value)
    value.dispose()
    return text
  }
  return { name: read("name") ?? "Error", message: read("message") ?? "the sandbox failed" }
}

const cutLogLine = (line: string) =>
  line.length <= MAX_LOG_LINE_CHARS ? line : `${line.slice(0, MAX_LOG_LINE_CHARS)}… [${line.length - MAX_LOG_LINE_CHARS} more characters]`

const byteLength = (text: string) => Buffer.byteLength(text, "utf8")

/** Keeps the head and the tail of an oversize JSON text, with a note telling the model how to narrow it. */
const cutResult = (json: string, limit: number): string => {
  const total = byteLength(json)
  const marker = `\n… [result truncated: it was ${total} bytes, over the ${limit}-byte limit; return less, e.g. only the fields you need, a slice of the array or a summary] …\n`
  const budget = Math.max(0, limit - byteLength(marker))
  const bytes = Buffer.from(json, "utf8")
  const half = Math.floor(budget / 2)
  const head = bytes.subarray(0, half).toString("utf8").replace(/\uFFFD+$/, "")
  const tail = bytes.subarray(bytes.length - half).toString("utf8").replace(/^\uFFFD+/, "")
  return `${head}${marker}${tail}`
}

/**
 * Starts one execution of `code` in `realm`, which must be fresh. CPU time is bounded by the
 * interrupt handler (checked while the guest runs) and waiting time by a timer; either way no guest
 * code runs once the outcome is known, late tool answers are dropped, and the realm is disposed right
 * after the outcome is reported.
 */
export const startExecution = (
  realm: Realm,
  code: string,
  globals: ReadonlyArray<string>,
  limits: Limits,
  hooks: SandboxHooks
): Execution => {
  const deadline = Date.now() + limits.timeoutMs
  const logs: Array<string> = []
  let droppedLogLines = 0
  let finished = false
  let promise: QuickJSHandle | undefined
  const { context, runtime } = realm

  realm.listen((level, text) => {
    if (logs.length < limits.maxLogLines) logs.push(cutLogLine(`[${level}] ${text}`))
    else droppedLogLines++
  })
  runtime.setMemoryLimit(limits.memoryLimitBytes)
  runtime.setMaxStackSize(limits.maxStackBytes)
  runtime.setInterruptHandler(() => Date.now() > deadline)

  const finish = (outcome: Omit<SandboxOutcome, "logs" | "truncated"> & { readonly truncated?: boolean }) => {
    if (finished) return
    finished = true
    clearTimeout(timer)
    // The marker takes the last kept line's place, so the logs never exceed the limit.
    const allLogs =
      droppedLogLines === 0
        ? logs
        : [...logs.slice(0, limits.maxLogLines - 1), `[codemode] … ${droppedLogLines + 1} more log lines dropped (limit ${limits.maxLogLines})`]
    if (promise?.alive) promise.dispose()
    hooks.done({ ...outcome, logs: allLogs, truncated: (outcome.truncated ?? false) || droppedLogLines > 0 })
    // Disposing after the report keeps the teardown off the caller's wait.
    try {
      realm.dispose()
    } catch {
      // The outcome is reported and the worker may already serve the next run; a realm that fails
      // to tear down is left to the garbage collector rather than taking the worker down.
    }
  }

  const timeout = () =>
    finish({
      status: "timeout",
      error: { _tag: "Timeout", message: `the execution exceeded its ${limits.timeoutMs} ms time limit` }
    })

  const fault = (error: QuickJSHandle) => {
    const { name, message } = describeFault(context, error)
    error.dispose()
    if (Date.now() > deadline || message === "interrupted") return timeout()
    if (message === "out of memory") {
      return finish({
        status: "error",
        error: { _tag: "MemoryLimitExceeded", message: `the execution exceeded its ${limits.memoryLimitBytes}-byte memory limit` }
      })
    }
    finish({ status: "error", error: { _tag: name, message } })
  }

  const report = (text: string) => {
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      return finish({ status: "error", error: { _tag: "MalformedReport", message: "the sandbox reported an outcome that is not JSON" } })
    }
    const record = typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : {}
    if (record["ok"] === true) {
      const json = record["json"]
      if (typeof json !== "string") return finish({ status: "completed" })
      return byteLength(json) <= limits.maxResultBytes
        ? finish({ status: "completed", resultJson: json })
        : finish({ status: "completed", resultJson: JSON.stringify(cutResult(json, limits.maxResultBytes)), truncated: true })
    }
    finish({
      status: "error",
      error: { _tag: String(record["tag"] ?? "Error"), message: String(record["message"] ?? "the execution failed") }
    })
  }

  /**
   * Hands the calls the guest made this turn to the host. It runs after every entry into the guest
   * and before the outcome is read, so a call made just before the guest returned still reaches the
   * host. It runs only while the deadline has not passed, so a turn the time limit cuts short hands
   * nothing over: its calls never start.
   */
  const forwardCalls = (): boolean => {
    const taken = context.callFunction(realm.takeCalls, context.undefined)
    if (taken.error !== undefined) {
      fault(taken.error)
      return false
    }
    const text = stringArgument(context, taken.value)
    taken.value.dispose()
    if (text !== undefined && text !== "") hooks.requestCalls(text)
    return true
  }

  const pump = () => {
    if (finished || promise === undefined) return
    const jobs = runtime.executePendingJobs()
    if (jobs.error !== undefined) return fault(jobs.error)
    // QuickJS turns the interrupt inside an async function into an ordinary rejection, so a turn cut
    // short by the deadline can end without an error; its queued calls must still not start.
    if (Date.now() > deadline) return timeout()
    if (!forwardCalls()) return
    const state = context.getPromiseState(promise)
    if (state.type === "pending") return
    if (state.type === "fulfilled") {
      const text = stringArgument(context, state.value)
      state.value.dispose()
      return text === undefined ? finish({ status: "error", error: { _tag: "Error", message: "the sandbox returned no report" } }) : report(text)
    }
    fault(state.error)
  }

  const timer = setTimeout(timeout, Math.max(0, deadline - Date.now()))

  const source = context.newString(code)
  const globalNames = context.newString(JSON.stringify(globals))
  const started = context.callFunction(realm.run, context.undefined, source, globalNames)
  source.dispose()
  globalNames.dispose()
  if (started.error !== undefined) fault(started.error)
  else {
    promise = started.value
    pump()
  }

  return {
    settle: (answers) => {
      if (finished) return
      // The timer may not have fired yet; the guest must not run, and so call tools, past the deadline.
      if (Date.now() > deadline) return timeout()
      const text = context.newString(answers)
      const settled = context.callFunction(realm.settle, context.undefined, text)
      text.dispose()
      if (settled.error !== undefined) return fault(settled.error)
      settled.value.dispose()
      pump()
    },
    cancel: () => finish({ status: "error", error: { _tag: "Cancelled", message: "the host cancelled the execution" } })
  }
}
