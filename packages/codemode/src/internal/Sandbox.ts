import type { QuickJSContext, QuickJSHandle, QuickJSRuntime } from "quickjs-emscripten-core"
import { PRELUDE } from "../generated/prelude.js"
import type { Limits, SandboxError, SandboxOutcome } from "./Protocol.js"
import { INITIAL_MEMORY_BYTES, instantiateQuickJs, memoryCapBytes, type QuickJsInstance } from "./QuickJs.js"
import type { WasmModule } from "./Wasm.js"

const MAX_LOG_LINE_CHARS = 2_000

/** The longest error tag reported: a tag is a name, not a message. */
const MAX_TAG_CHARS = 100

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
 * A fresh QuickJS instance with its runtime and context, the prelude applied (`console` and
 * `tools`), holding the prelude's entry points. It serves exactly one execution, which points its
 * console at its own log. Nothing in it is freed piecemeal: its linear memory is its own, and the
 * whole instance is dropped with it, which is all freeing it inside the engine would achieve.
 */
export interface Realm {
  readonly instance: QuickJsInstance
  /** The guest memory limit this realm's linear memory is capped for. */
  readonly memoryLimitBytes: number
  readonly runtime: QuickJSRuntime
  readonly context: QuickJSContext
  readonly run: QuickJSHandle
  readonly takeCalls: QuickJSHandle
  readonly settle: QuickJSHandle
  readonly listen: (onLog: (level: string, text: string) => void) => void
}

/**
 * Builds a realm on an instance of its own. Nothing in it depends on the execution it will serve
 * but the memory limit, so a worker builds the next one while it waits; `seedBuiltinGlobals` builds
 * the same realm to enumerate what the guest sees.
 */
export const createRealm = (instance: QuickJsInstance, memoryLimitBytes: number): Realm => {
  const runtime = instance.module.newRuntime()
  const context = runtime.newContext()
  let onLog: ((level: string, text: string) => void) | undefined
  const log = context.newFunction("log", (level, text) => {
    onLog?.(stringArgument(context, level) ?? "log", stringArgument(context, text) ?? "")
  })
  const prelude = context.unwrapResult(context.evalCode(PRELUDE, "prelude.js"))
  const entryPoints = context.unwrapResult(context.callFunction(prelude, context.undefined, log))
  const [run, takeCalls, settle] = [0, 1, 2].map((index) => context.getProp(entryPoints, index))
  if (run === undefined || takeCalls === undefined || settle === undefined) throw new TypeError("the prelude returned no entry points")
  return {
    instance,
    memoryLimitBytes,
    runtime,
    context,
    run,
    takeCalls,
    settle,
    listen: (listener) => {
      onLog = listener
    }
  }
}

/** A realm on a fresh instance of the compiled module, its memory capped for `memoryLimitBytes`. */
export const buildRealm = async (wasmModule: WasmModule, memoryLimitBytes: number): Promise<Realm> =>
  createRealm(await instantiateQuickJs(wasmModule, memoryCapBytes(memoryLimitBytes)), memoryLimitBytes)

/**
 * Keeps one realm built ahead of the execution that will take it. Building a realm (an instance,
 * its context and intrinsics, compiling the prelude) is most of what a short execution costs and
 * none of it depends on the execution but its memory limit, so a worker refills the stock while it
 * would otherwise wait. A stocked realm is still fresh when taken: no code but the prelude has run
 * in it, and no other execution ever touched its memory.
 */
export const makeRealmStock = (build: (memoryLimitBytes: number) => Promise<Realm>) => {
  let ready: Promise<Realm> | undefined
  let readyLimit = 0
  return {
    /** Builds a realm for `memoryLimitBytes` unless one is stocked; resolves once the stocked one is built. */
    refill: (memoryLimitBytes: number): Promise<void> => {
      if (ready === undefined || readyLimit !== memoryLimitBytes) {
        ready = build(memoryLimitBytes)
        readyLimit = memoryLimitBytes
      }
      // A failed build is built again by `take`, whose failure reaches the host as the run's failure.
      return ready.then(() => undefined, () => undefined)
    },
    take: (memoryLimitBytes: number): Promise<Realm> => {
      const stocked = ready !== undefined && readyLimit === memoryLimitBytes ? ready : undefined
      ready?.catch(() => undefined)
      ready = undefined
      return (stocked ?? build(memoryLimitBytes)).catch(() => build(memoryLimitBytes))
    }
  }
}

/** The names on a fresh guest realm's `globalThis`, sorted. */
export const realmGlobalNames = async (wasmModule: WasmModule): Promise<ReadonlyArray<string>> => {
  const realm = await buildRealm(wasmModule, 16 * 1024 * 1024)
  const names = realm.context.unwrapResult(realm.context.evalCode("JSON.stringify(Object.getOwnPropertyNames(globalThis))"))
  const parsed: unknown = JSON.parse(realm.context.getString(names))
  if (!Array.isArray(parsed)) throw new TypeError("the guest realm listed no globals")
  return parsed.map(String).toSorted()
}

/** Reads `name` and `message` of an engine error (interrupt, out of memory) as plain strings. */
const describeFault = (context: QuickJSContext, error: QuickJSHandle): { name: string; message: string } => {
  const read = (key: string) => {
    try {
      const value = context.getProp(error, key)
      const text = stringArgument(context, value)
      value.dispose()
      return text
    } catch {
      return undefined
    }
  }
  return { name: read("name") ?? "Error", message: read("message") ?? "the sandbox failed" }
}

const cutLogLine = (line: string) =>
  line.length <= MAX_LOG_LINE_CHARS ? line : `${line.slice(0, MAX_LOG_LINE_CHARS)}… [${line.length - MAX_LOG_LINE_CHARS} more characters]`

const byteLength = (text: string) => Buffer.byteLength(text, "utf8")

/** The first `limit` bytes of a text, never splitting a character. */
const headOf = (text: string, limit: number): string =>
  Buffer.from(text, "utf8").subarray(0, Math.max(0, limit)).toString("utf8").replace(/\uFFFD+$/, "")

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
 * An error as the guest reported it, its tag and message bounded (a message by `maxResultBytes`,
 * like a result). The host decides what a guest-raised tag may mean (see `HOST_STOP_TAGS`).
 */
const guestError = (tag: string, message: string, limit: number): { readonly error: SandboxError; readonly truncated: boolean } => {
  const claimed = tag.length > MAX_TAG_CHARS ? `${tag.slice(0, MAX_TAG_CHARS)}…` : tag
  const cut = byteLength(message) > limit
  return {
    error: {
      _tag: claimed,
      message: cut ? `${headOf(message, limit - 64)}… [error message truncated at ${limit} bytes]` : message,
      raisedBy: "guest"
    },
    truncated: cut || claimed !== tag
  }
}

/**
 * The engine's own words for an allocation it could not make; when even the error cannot be
 * allocated, what is thrown is `null`.
 */
const isOutOfMemory = (name: string, message: string) =>
  (name === "InternalError" && message === "out of memory") || (name === "Thrown" && message === "null")

/**
 * Whether the guest really was out of memory when an out-of-memory error surfaced: the instance
 * grew toward its cap, or QuickJS's own count neared the limit. An allocation fails when what it
 * asks for does not fit, so the memory in use then is at least a good part of the limit; a guest
 * that merely throws an error worded so, holding little, is not believed.
 */
const memoryExhausted = (realm: Realm): boolean => {
  const threshold = realm.memoryLimitBytes * 0.4
  try {
    if (realm.instance.memory.buffer.byteLength - INITIAL_MEMORY_BYTES >= threshold) return true
    const usage = realm.runtime.computeMemoryUsage()
    const mallocSize = realm.context.getProp(usage, "malloc_size")
    try {
      const size = realm.context.getNumber(mallocSize)
      return Number.isFinite(size) && size >= threshold
    } finally {
      mallocSize.dispose()
      usage.dispose()
    }
  } catch {
    return false
  }
}

/**
 * Starts one execution of `code` in `realm`, which must be fresh. CPU time is bounded by the
 * interrupt handler (checked while the guest runs) and waiting time by a timer; either way no guest
 * code runs once the outcome is known, late tool answers are dropped, and nothing enters the realm
 * again after the outcome is reported. `Timeout` and `MemoryLimitExceeded` are decided from what this side
 * observed — the clock, the interrupt it raised, the memory the instance holds — never from what the
 * guest threw.
 */
export const startExecution = (
  realm: Realm,
  code: string,
  globals: ReadonlyArray<string>,
  limits: Limits,
  hooks: SandboxHooks,
  deadline = Date.now() + limits.timeoutMs
): Execution => {
  const logs: Array<string> = []
  let droppedLogLines = 0
  let finished = false
  let interrupted = false
  let promise: QuickJSHandle | undefined
  const { context, runtime } = realm

  realm.listen((level, text) => {
    if (logs.length < limits.maxLogLines) logs.push(cutLogLine(`[${level}] ${text}`))
    else droppedLogLines++
  })
  runtime.setMemoryLimit(limits.memoryLimitBytes)
  runtime.setMaxStackSize(limits.maxStackBytes)
  runtime.setInterruptHandler(() => {
    if (Date.now() <= deadline) return false
    interrupted = true
    return true
  })

  const finish = (outcome: Omit<SandboxOutcome, "logs" | "truncated" | "memoryBytes"> & { readonly truncated?: boolean }) => {
    if (finished) return
    finished = true
    clearTimeout(timer)
    // The marker takes the last kept line's place, so the logs never exceed the limit.
    const allLogs =
      droppedLogLines === 0
        ? logs
        : [...logs.slice(0, limits.maxLogLines - 1), `[codemode] … ${droppedLogLines + 1} more log lines dropped (limit ${limits.maxLogLines})`]
    hooks.done({
      ...outcome,
      logs: allLogs,
      truncated: (outcome.truncated ?? false) || droppedLogLines > 0,
      memoryBytes: realm.instance.memory.buffer.byteLength
    })
  }

  const timeout = () =>
    finish({
      status: "timeout",
      error: { _tag: "Timeout", message: `the execution exceeded its ${limits.timeoutMs} ms time limit`, raisedBy: "host" }
    })

  const memoryExceeded = () =>
    finish({
      status: "error",
      error: { _tag: "MemoryLimitExceeded", message: `the execution exceeded its ${limits.memoryLimitBytes}-byte memory limit`, raisedBy: "host" }
    })

  /** An engine failure: what it means is decided here, from the clock, the interrupt and the memory. */
  const fault = (error: QuickJSHandle) => {
    const { name, message } = describeFault(context, error)
    error.dispose()
    if (interrupted || Date.now() > deadline) return timeout()
    if (isOutOfMemory(name, message) && memoryExhausted(realm)) return memoryExceeded()
    const reported = guestError(name, message, limits.maxResultBytes)
    finish({ status: "error", error: reported.error, truncated: reported.truncated })
  }

  /** The instance aborted (a trap inside the engine): nothing in it can be trusted or asked again. */
  const aborted = (cause: unknown) => {
    if (interrupted || Date.now() > deadline) return timeout()
    if (memoryExhausted(realm)) return memoryExceeded()
    finish({
      status: "error",
      error: { _tag: "SandboxCrashed", message: `the sandbox engine stopped: ${cause instanceof Error ? cause.message : String(cause)}`, raisedBy: "host" }
    })
  }

  /** Runs `step` inside the engine; a trap (a WebAssembly abort) ends the execution as `aborted`. */
  const guarded = (step: () => void) => {
    try {
      step()
    } catch (cause) {
      if (!finished) aborted(cause)
    }
  }

  const report = (text: string) => {
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      return finish({ status: "error", error: { _tag: "MalformedReport", message: "the sandbox reported an outcome that is not JSON", raisedBy: "host" } })
    }
    const record = typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : {}
    if (record["ok"] === true) {
      const json = record["json"]
      if (typeof json !== "string") return finish({ status: "completed" })
      return byteLength(json) <= limits.maxResultBytes
        ? finish({ status: "completed", resultJson: json })
        : finish({ status: "completed", resultJson: JSON.stringify(cutResult(json, limits.maxResultBytes)), truncated: true })
    }
    const tag = String(record["tag"] ?? "Error")
    const message = String(record["message"] ?? "the execution failed")
    // An allocation failure inside an async function reaches the prelude as an ordinary rejection.
    if (isOutOfMemory(tag, message) && memoryExhausted(realm)) return memoryExceeded()
    const reported = guestError(tag, message, limits.maxResultBytes)
    finish({ status: "error", error: reported.error, truncated: reported.truncated })
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
    if (interrupted || Date.now() > deadline) return timeout()
    if (!forwardCalls()) return
    const state = context.getPromiseState(promise)
    if (state.type === "pending") return
    if (state.type === "fulfilled") {
      const text = stringArgument(context, state.value)
      state.value.dispose()
      return text === undefined ? finish({ status: "error", error: { _tag: "Error", message: "the sandbox returned no report", raisedBy: "host" } }) : report(text)
    }
    fault(state.error)
  }

  const timer = setTimeout(timeout, Math.max(0, deadline - Date.now()))

  guarded(() => {
    if (Date.now() > deadline) return timeout()
    const source = context.newString(code)
    const globalNames = context.newString(JSON.stringify(globals))
    const inputLimit = context.newNumber(limits.maxInputBytes)
    const started = context.callFunction(realm.run, context.undefined, source, globalNames, inputLimit)
    source.dispose()
    globalNames.dispose()
    inputLimit.dispose()
    if (started.error !== undefined) fault(started.error)
    else {
      promise = started.value
      pump()
    }
  })

  return {
    settle: (answers) =>
      guarded(() => {
        if (finished) return
        // The timer may not have fired yet; the guest must not run, and so call tools, past the deadline.
        if (Date.now() > deadline) return timeout()
        const text = context.newString(answers)
        const settled = context.callFunction(realm.settle, context.undefined, text)
        text.dispose()
        if (settled.error !== undefined) return fault(settled.error)
        settled.value.dispose()
        pump()
      }),
    cancel: () => finish({ status: "error", error: { _tag: "Cancelled", message: "the host cancelled the execution", raisedBy: "host" } })
  }
}
