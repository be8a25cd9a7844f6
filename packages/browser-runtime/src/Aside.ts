import { randomBytes } from "node:crypto"
import { Schema } from "effect"
import type { Environment } from "./Environment.js"
import { AsideProcess } from "./internal/AsideProcess.js"
import { describeFailure, unavailable } from "./internal/failure.js"

export interface AsideOptions {
  /** Start-up and each call; default 5000 ms. */
  readonly timeoutMs?: number
  /** Supplies PATH and HOME (nothing else is passed on); default `process.env`. */
  readonly env?: Environment
}

export const DEFAULT_ASIDE_TIMEOUT_MS = 5000

/** What Aside's REPL prints when it is ready for input. */
const PROMPT = "repl >"

/** A tab as Aside's REPL lists it. */
export interface AsideTab {
  readonly id: string
  readonly url: string
}

const TabList = Schema.Array(Schema.Struct({ id: Schema.Union([Schema.String, Schema.Number]), url: Schema.String }))
const OpenedTab = Schema.Struct({ id: Schema.Union([Schema.String, Schema.Number]) })

const unavailableAside = (command: string, error: unknown) =>
  unavailable({ provider: "aside", endpoint: command, reason: describeFailure(error) })

/**
 * A persistent `aside repl` session: one child process, calls answered one at a time. Each call
 * carries a fresh random marker and only a line that starts with it counts as the answer, so
 * neither the REPL's echo of the input nor page text can forge a result.
 */
export class AsideSession {
  private queue: Promise<unknown> = Promise.resolve()
  private readonly openedTabs = new Set<string>()

  private constructor(
    readonly command: string,
    private readonly process: AsideProcess,
    private readonly timeoutMs: number
  ) {}

  /** Starts `<command> repl` and waits for its prompt; rejects with `BrowserUnavailableError`. */
  static async open(command: string, options: AsideOptions = {}): Promise<AsideSession> {
    const timeoutMs = options.timeoutMs ?? DEFAULT_ASIDE_TIMEOUT_MS
    let child: AsideProcess | undefined
    try {
      child = AsideProcess.start(command, options.env ?? process.env)
      const started = child
      await started.waitFor(() => (started.lines().some((line) => line.includes(PROMPT)) ? true : null), timeoutMs, "aside repl did not start")
      return new AsideSession(command, started, timeoutMs)
    } catch (error) {
      await child?.stop().catch(() => undefined)
      throw unavailableAside(command, error)
    }
  }

  /**
   * Evaluates `expression` (an expression over Aside's REPL functions, built by this module) and
   * returns its JSON value.
   */
  private evaluate(expression: string): Promise<unknown> {
    const next = this.queue.then(
      () => this.evaluateNow(expression),
      () => this.evaluateNow(expression)
    )
    this.queue = next.catch(() => undefined)
    return next
  }

  private async evaluateNow(expression: string): Promise<unknown> {
    const marker = `ARMORY_${randomBytes(16).toString("hex")}`
    // The marker is assembled inside the REPL, so the echoed input never contains it whole.
    const half = marker.length / 2
    const tag = `[${JSON.stringify(marker.slice(0, half))}, ${JSON.stringify(marker.slice(half))}].join("")`
    this.process.clear()
    this.process.write(
      `await (async () => { const tag = ${tag}; try { const value = await (${expression}); console.log(tag + "=" + JSON.stringify(value === undefined ? null : value)) } catch (error) { console.log(tag + "!" + JSON.stringify(String(error && error.message || error))) } })()`
    )
    const answer = await this.process
      .waitFor(
        () => this.process.lines().find((line) => line.startsWith(`${marker}=`) || line.startsWith(`${marker}!`)) ?? null,
        this.timeoutMs,
        "aside repl did not answer"
      )
      .catch((error: unknown) => {
        throw unavailableAside(this.command, error)
      })
    const payload = answer.slice(marker.length + 1)
    let value: unknown
    try {
      value = JSON.parse(payload)
    } catch {
      throw unavailableAside(this.command, "its answer is not JSON")
    }
    if (answer[marker.length] === "!") throw unavailableAside(this.command, `the call failed: ${String(value)}`)
    return value
  }

  /** The browser's tabs. */
  async listTabs(): Promise<ReadonlyArray<AsideTab>> {
    const value = await this.evaluate("listBrowserTabs().then((tabs) => tabs.map((tab) => ({ id: tab.id, url: tab.url })))")
    const decoded = Schema.decodeUnknownResult(TabList)(value)
    if (decoded._tag === "Failure") throw unavailableAside(this.command, "listBrowserTabs did not answer with tabs")
    return decoded.success.map((tab) => ({ id: String(tab.id), url: tab.url }))
  }

  /** Opens a tab; the session remembers it as its own. */
  async openTab(url: string): Promise<AsideTab> {
    const value = await this.evaluate(`openTab(${JSON.stringify(url)}).then((tab) => ({ id: tab.id }))`)
    const decoded = Schema.decodeUnknownResult(OpenedTab)(value)
    if (decoded._tag === "Failure") throw unavailableAside(this.command, "openTab did not answer with a tab")
    const id = String(decoded.success.id)
    this.openedTabs.add(id)
    return { id, url }
  }

  /** Closes a tab this session opened; a tab it did not open is never closed. */
  async closeTab(id: string): Promise<boolean> {
    if (!this.openedTabs.has(id)) return false
    await this.evaluate(`closeTab(${JSON.stringify(id)})`)
    this.openedTabs.delete(id)
    return true
  }

  /** Closes the tabs this session opened, then ends the REPL process group. */
  async close(): Promise<void> {
    try {
      for (const id of this.openedTabs) await this.closeTab(id)
    } finally {
      await this.process.stop()
    }
  }
}

/**
 * Whether Aside answers: starts its REPL, lists the tabs with a read-only expression and ends the
 * process group. Rejects with `BrowserUnavailableError`.
 */
export const probeAside = async (command: string, options: AsideOptions = {}): Promise<{ readonly tabCount: number }> => {
  const session = await AsideSession.open(command, options)
  try {
    return { tabCount: (await session.listTabs()).length }
  } finally {
    await session.close()
  }
}
