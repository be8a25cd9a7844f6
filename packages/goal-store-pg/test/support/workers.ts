import { type ChildProcess, fork } from "node:child_process"
import { join } from "node:path"

export const WORKER = join(import.meta.dirname, "..", "fixtures", "worker.ts")

export interface WorkerError {
  readonly index: number
  readonly tag: string
  readonly committed?: boolean
  readonly reason?: string
}

export interface Reply {
  readonly id: number
  readonly results: ReadonlyArray<unknown>
  readonly errors: ReadonlyArray<WorkerError>
}

export interface WorkerSettings {
  readonly databaseUrl: string
  readonly schema: string
  readonly applicationName: string
  readonly snapshotEvery?: number
  readonly maxReconnects?: number
}

/** A long-lived worker process that runs goal-store calls on request, over IPC. */
export interface Worker {
  readonly process: ChildProcess
  run(request: Record<string, unknown>): { readonly ready: Promise<void>; readonly done: Promise<Reply> }
  go(): void
  stop(): void
}

let nextId = 0
const notYet = () => undefined

const children = new Set<ChildProcess>()

/** Starts a worker process in one of the fixture's modes; `killAll` ends whatever is still running. */
export const spawnWorker = (settings: WorkerSettings & Record<string, unknown>): ChildProcess => {
  const child = fork(WORKER, [JSON.stringify(settings)], { stdio: ["ignore", "inherit", "inherit", "ipc"] })
  children.add(child)
  child.on("exit", () => children.delete(child))
  return child
}

export const killAll = (): void => {
  for (const child of children) child.kill("SIGKILL")
}

export const exitOf = (child: ChildProcess): Promise<NodeJS.Signals | number | null> =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.signalCode ?? child.exitCode)
    else child.once("exit", (code, signal) => resolve(signal ?? code))
  })

export const startWorker = async (settings: WorkerSettings): Promise<Worker> => {
  const child = spawnWorker({ ...settings, mode: "serve" })
  const waiting = new Map<number, { ready: () => void; done: (reply: Reply) => void }>()
  child.on("message", (message: { id?: number; ready?: boolean } & Partial<Reply>) => {
    if (message.id === undefined) return
    const entry = waiting.get(message.id)
    if (entry === undefined) return
    entry.ready()
    if (message.ready !== true) {
      waiting.delete(message.id)
      entry.done(message as Reply)
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
      let done: (reply: Reply) => void = notYet
      const readyPromise = new Promise<void>((resolve) => (ready = resolve))
      const donePromise = new Promise<Reply>((resolve) => (done = resolve))
      waiting.set(id, { ready, done })
      child.send({ ...request, id })
      return { ready: readyPromise, done: donePromise }
    },
    go: () => child.send("go"),
    stop: () => child.kill()
  }
}

export const startWorkers = (count: number, settings: WorkerSettings): Promise<ReadonlyArray<Worker>> =>
  Promise.all(Array.from({ length: count }, () => startWorker(settings)))
