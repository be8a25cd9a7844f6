import { existsSync } from "node:fs"
import { join } from "node:path"
import { LEDGER_FILE, SESSIONS_DIRECTORY, SNAPSHOT_FILE } from "@armory/goal-store/files"
import { type FileStamp, isRecord, isStampList, readCache, stampOf, stampsHold, writeCache } from "./FileStamps.js"

const CACHE_VERSION = 1

interface SnapshotCache {
  readonly version: typeof CACHE_VERSION
  readonly session: string
  readonly stamps: ReadonlyArray<FileStamp>
  readonly snapshot: string
}

const isSnapshotCache = (value: unknown, session: string): value is SnapshotCache =>
  isRecord(value) && value["version"] === CACHE_VERSION && value["session"] === session && isStampList(value["stamps"]) && typeof value["snapshot"] === "string"

/** The directory a file-store session keeps its files in: the root for the default session. */
const sessionDirectory = (root: string, sessionId: string | undefined): string => (sessionId === undefined ? root : join(root, SESSIONS_DIRECTORY, sessionId))

/** The goal snapshot a hook adds (empty when no goal is open), or why it cannot be read. */
export type HookSnapshot = { readonly text: string } | { readonly unavailable: string }

const MAX_REASON_CHARS = 300

const reasonOf = (error: unknown): string => {
  if (typeof error === "object" && error !== null) {
    const tag = "_tag" in error && typeof error._tag === "string" ? error._tag : undefined
    const message = "message" in error && typeof error.message === "string" ? error.message : undefined
    if (tag !== undefined || message !== undefined) return [tag, message].filter((part) => part !== undefined && part !== "").join(": ")
  }
  return String(error)
}

/**
 * The goal snapshot of a file-store session, as a hook injects it: empty when the session has no
 * files (a hook never creates them). The text is kept in `cacheDirectory` with the stamps of the
 * session's files, and read through `@armory/goal-store` (imported only then) when they changed.
 * A session whose files cannot be read (a malformed ledger line, say) answers why, never throws:
 * the hook still adds the skills it armed.
 */
export const hookGoalSnapshot = async (options: {
  readonly root: string
  readonly sessionId?: string | undefined
  readonly cacheDirectory: string
}): Promise<HookSnapshot> => {
  try {
    return { text: await readSnapshot(options) }
  } catch (error) {
    const reason = reasonOf(error).replace(/\s+/g, " ").trim()
    return { unavailable: reason.length <= MAX_REASON_CHARS ? reason : `${reason.slice(0, MAX_REASON_CHARS - 1)}…` }
  }
}

const readSnapshot = async (options: { readonly root: string; readonly sessionId?: string | undefined; readonly cacheDirectory: string }): Promise<string> => {
  // The session id names the cache file, escaped so that no id can name a file outside the directory.
  const cacheFile = join(options.cacheDirectory, `hook-snapshot${options.sessionId === undefined ? "" : `-${encodeURIComponent(options.sessionId)}`}.json`)
  const directory = sessionDirectory(options.root, options.sessionId)
  if (!existsSync(join(directory, LEDGER_FILE))) return ""
  const session = JSON.stringify([options.root, options.sessionId ?? null])
  // The directory too: a snapshot rewritten by rename keeps neither the old file's times nor its inode.
  const stamps = () => [directory, join(directory, LEDGER_FILE), join(directory, SNAPSHOT_FILE)].map(stampOf)
  const cached = readCache(cacheFile)
  if (isSnapshotCache(cached, session) && stampsHold(cached.stamps)) return cached.snapshot
  const before = stamps()
  const { openGoalStore } = await import("@armory/goal-store")
  const store = await openGoalStore({ root: options.root, ...(options.sessionId === undefined ? {} : { sessionId: options.sessionId }) })
  const snapshot = await store.snapshot()
  writeCache(cacheFile, { version: CACHE_VERSION, session, stamps: before, snapshot } satisfies SnapshotCache)
  return snapshot
}
