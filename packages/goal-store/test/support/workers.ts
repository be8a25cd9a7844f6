import { type ChildProcess, fork } from "node:child_process"
import { join } from "node:path"

export const WORKER = join(import.meta.dirname, "..", "fixtures", "worker.ts")

export interface Reply {
  readonly id: number
  readonly results: ReadonlyArray<unknown>
  readonly errors: ReadonlyArray<string>
}

/** A long-lived worker process that runs goal-store calls on request, over IPC. */
export interface Worker<R extends { readonly id: number } = Reply> {
  readonly process: ChildProcess
  run(request: Record<string, unknown>): { readonly ready: Promise<void>; readonly done: Promise<R> }
  go(): void
  stop(): void
}

let nextId = 0
const notYet = () => undefined

/**
 * Talks to a forked worker fixture: each request gets an id; the fixture answers `{ id, ready }`
 * once it is about to run (and waits for `go`), then its reply with the same id.
 */
export const connectWorker = async <R extends { readonly id: number }>(child: ChildProcess): Promise<Worker<R>> => {
  const waiting = new Map<number, { ready: () => void; done: (reply: R) => void }>()
  child.on("message", (message: { id?: number; ready?: boolean } & Partial<R>) => {
    if (message.id === undefined) return
    const entry = waiting.get(message.id)
    if (entry === undefined) return
    entry.ready()
    if (message.ready !== true) {
      waiting.delete(message.id)
      entry.done(message as R)
    }
  })
  await new Promise<void>((resolve, reject) => {
    child.once("message", () => resolve())
    child.once("exit", (code) => reject(new Error(`worker exited with ${code} before starting`)))
  })
  return {
    process: child,
    run: (request) => {
      const id = nextId++
      let ready: () => void = notYet
      let done: (reply: R) => void = notYet
      const readyPromise = new Promise<void>((resolve) => (ready = resolve))
      const donePromise = new Promise<R>((resolve) => (done = resolve))
      waiting.set(id, { ready, done })
      child.send({ ...request, id })
      return { ready: readyPromise, done: donePromise }
    },
    go: () => child.send("go"),
    stop: () => child.kill()
  }
}

export const startWorker = (): Promise<Worker> => connectWorker<Reply>(fork(WORKER, [], { stdio: ["ignore", "inherit", "inherit", "ipc"] }))

export const startWorkers = (count: number): Promise<ReadonlyArray<Worker>> =>
  Promise.all(Array.from({ length: count }, () => startWorker()))
