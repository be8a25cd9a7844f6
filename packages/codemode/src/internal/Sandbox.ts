import type {
  QuickJSContext,
  QuickJSDeferredPromise,
  QuickJSHandle,
  QuickJSRuntime,
  QuickJSWASMModule
} from "quickjs-emscripten-core"
import { PRELUDE } from "./Prelude.js"
import type { CallOutcome, Limits, SandboxOutcome } from "./Protocol.js"

const MAX_LOG_LINE_CHARS = 2_000

/** The hooks an execution reports through: tool calls go out, the outcome comes back once. */
export interface SandboxHooks {
  readonly requestCall: (callId: number, path: string, input: string | undefined) => void
  readonly done: (outcome: SandboxOutcome) => void
}

/** A running execution: the host settles its tool calls or cancels it. */
export interface Execution {
  readonly settle: (callId: number, outcome: CallOutcome) => void
  readonly cancel: () => void
}

interface Realm {
  readonly runtime: QuickJSRuntime
  readonly context: QuickJSContext
  readonly run: QuickJSHandle
  readonly dispose: () => void
}

type BridgeHandler = (context: QuickJSContext, args: ReadonlyArray<QuickJSHandle>) => QuickJSHandle | undefined

/**
 * A fresh runtime and context with the prelude applied: `console`, `tools` and one Proxy node per
 * global name. `seedBuiltinGlobals` builds the same realm to enumerate what the guest sees.
 */
export const createRealm = (
  module: QuickJSWASMModule,
  globals: ReadonlyArray<string>,
  bridge: BridgeHandler
): Realm => {
  const runtime = module.newRuntime()
  const context = runtime.newContext()
  const owned: Array<QuickJSHandle> = []
  const dispose = () => {
    for (const handle of owned) if (handle.alive) handle.dispose()
    context.dispose()
    runtime.dispose()
  }
  try {
    const bridgeFunction = context.newFunction("bridge", function (...args) {
      return bridge(context, args)
    })
    owned.push(bridgeFunction)
    const names = context.newArray()
    owned.push(names)
    globals.forEach((name, index) => {
      const value = context.newString(name)
      context.setProp(names, index, value)
      value.dispose()
    })
    const prelude = context.unwrapResult(context.evalCode(PRELUDE, "prelude.js"))
    owned.push(prelude)
    const run = context.unwrapResult(context.callFunction(prelude, context.undefined, bridgeFunction, names))
    owned.push(run)
    return { runtime, context, run, dispose }
  } catch (error) {
    dispose()
    throw error
  }
}

/** The names on a fresh guest realm's `globalThis`, sorted. */
export const realmGlobalNames = (module: QuickJSWASMModule): ReadonlyArray<string> => {
  const realm = createRealm(module, [], () => undefined)
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

const stringArgument = (context: QuickJSContext, handle: QuickJSHandle | undefined): string | undefined =>
  handle !== undefined && context.typeof(handle) === "string" ? context.getString(handle) : undefined

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
 * Starts one execution of `code` in a fresh realm. CPU time is bounded by the interrupt handler
 * (checked while the guest runs) and waiting time by a timer; either way the realm is disposed the
 * moment the outcome is known, so no guest callback runs afterwards and late tool answers are dropped.
 */
export const startExecution = (
  module: QuickJSWASMModule,
  code: string,
  globals: ReadonlyArray<string>,
  limits: Limits,
  hooks: SandboxHooks
): Execution => {
  const deadline = Date.now() + limits.timeoutMs
  const logs: Array<string> = []
  let droppedLogLines = 0
  const pending = new Map<number, QuickJSDeferredPromise>()
  let nextCallId = 0
  let finished = false
  let promise: QuickJSHandle | undefined

  const log = (level: string, text: string) => {
    if (logs.length < limits.maxLogLines) logs.push(cutLogLine(`[${level}] ${text}`))
    else droppedLogLines++
  }

  const bridge: BridgeHandler = (context, [kind, ...args]) => {
    const operation = stringArgument(context, kind)
    if (operation === "log") {
      log(stringArgument(context, args[0]) ?? "log", stringArgument(context, args[1]) ?? "")
      return undefined
    }
    if (operation === "call") {
      const path = stringArgument(context, args[0]) ?? ""
      const input = stringArgument(context, args[1])
      const callId = nextCallId++
      const deferred = context.newPromise()
      pending.set(callId, deferred)
      hooks.requestCall(callId, path, input)
      return deferred.handle.dup()
    }
    throw new TypeError("unknown bridge operation")
  }

  const realm = createRealm(module, globals, bridge)
  realm.runtime.setMemoryLimit(limits.memoryLimitBytes)
  realm.runtime.setMaxStackSize(limits.maxStackBytes)
  realm.runtime.setInterruptHandler(() => Date.now() > deadline)

  const finish = (outcome: Omit<SandboxOutcome, "logs" | "truncated"> & { readonly truncated?: boolean }) => {
    if (finished) return
    finished = true
    clearTimeout(timer)
    // The marker takes the last kept line's place, so the logs never exceed the limit.
    const allLogs =
      droppedLogLines === 0
        ? logs
        : [...logs.slice(0, limits.maxLogLines - 1), `[codemode] … ${droppedLogLines + 1} more log lines dropped (limit ${limits.maxLogLines})`]
    for (const deferred of pending.values()) deferred.dispose()
    pending.clear()
    if (promise?.alive) promise.dispose()
    realm.dispose()
    hooks.done({ ...outcome, logs: allLogs, truncated: (outcome.truncated ?? false) || droppedLogLines > 0 })
  }

  const timeout = () =>
    finish({
      status: "timeout",
      error: { _tag: "Timeout", message: `the execution exceeded its ${limits.timeoutMs} ms time limit` }
    })

  const fault = (error: QuickJSHandle) => {
    const { name, message } = describeFault(realm.context, error)
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
    const parsed: unknown = JSON.parse(text)
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

  const pump = () => {
    if (finished || promise === undefined) return
    const jobs = realm.runtime.executePendingJobs()
    if (jobs.error !== undefined) return fault(jobs.error)
    if (Date.now() > deadline) return timeout()
    const state = realm.context.getPromiseState(promise)
    if (state.type === "pending") return
    if (state.type === "fulfilled") {
      const text = stringArgument(realm.context, state.value)
      state.value.dispose()
      return text === undefined ? finish({ status: "error", error: { _tag: "Error", message: "the sandbox returned no report" } }) : report(text)
    }
    fault(state.error)
  }

  const timer = setTimeout(timeout, Math.max(0, deadline - Date.now()))

  const source = realm.context.newString(code)
  const started = realm.context.callFunction(realm.run, realm.context.undefined, source)
  source.dispose()
  if (started.error !== undefined) fault(started.error)
  else {
    promise = started.value
    pump()
  }

  return {
    settle: (callId, outcome) => {
      const deferred = pending.get(callId)
      if (finished || deferred === undefined) return
      pending.delete(callId)
      const payload = outcome.ok ? outcome.output : JSON.stringify(outcome.error)
      if (payload === undefined) deferred.resolve()
      else {
        const handle = realm.context.newString(payload)
        if (outcome.ok) deferred.resolve(handle)
        else deferred.reject(handle)
        handle.dispose()
      }
      deferred.dispose()
      pump()
    },
    cancel: () => finish({ status: "error", error: { _tag: "Cancelled", message: "the host cancelled the execution" } })
  }
}
