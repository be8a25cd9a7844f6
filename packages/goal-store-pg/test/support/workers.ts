import { type ChildProcess, fork } from "node:child_process"
import { join } from "node:path"
import { connectWorker, type Worker as SharedWorker } from "../../../goal-store/test/support/workers.js"

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

/** A long-lived worker process that runs goal-store-pg calls on request, over IPC. */
export type Worker = SharedWorker<Reply>

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

export const startWorker = (settings: WorkerSettings): Promise<Worker> => connectWorker<Reply>(spawnWorker({ ...settings, mode: "serve" }))

export const startWorkers = (count: number, settings: WorkerSettings): Promise<ReadonlyArray<Worker>> =>
  Promise.all(Array.from({ length: count }, () => startWorker(settings)))
