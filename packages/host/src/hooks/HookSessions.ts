import { createHash } from "node:crypto"
import { join } from "node:path"
import { isRecord, readCache, writeCache } from "./FileStamps.js"

/** The most sessions a project's hook cache remembers; the least recently answered is forgotten first. */
export const MAX_HOOK_SESSIONS = 64

const CACHE_VERSION = 1

type Delivery = readonly [session: string, snapshot: string]

const isDeliveryList = (value: unknown): value is ReadonlyArray<Delivery> =>
  Array.isArray(value) && value.every((entry) => Array.isArray(entry) && entry.length === 2 && typeof entry[0] === "string" && typeof entry[1] === "string")

const digest = (text: string): string => createHash("sha256").update(text).digest("base64url")

/**
 * Records that `session` is given this goal snapshot, and says whether it had not been given it
 * already. A host keeps what a hook added in its conversation, so a prompt adds the snapshot only
 * when it is new to the session. The record is a cache: when it cannot be read or written the
 * snapshot is simply added again.
 */
export const recordSnapshot = (cacheDirectory: string, session: string, snapshot: string): boolean => {
  const file = join(cacheDirectory, "hook-sessions.json")
  const cached = readCache(file)
  const deliveries = isRecord(cached) && cached["version"] === CACHE_VERSION && isDeliveryList(cached["sessions"]) ? cached["sessions"] : []
  const key = digest(session)
  const current = digest(snapshot)
  if (deliveries.some(([entry, delivered]) => entry === key && delivered === current)) return false
  const kept = deliveries.filter(([entry]) => entry !== key).slice(-(MAX_HOOK_SESSIONS - 1))
  writeCache(file, { version: CACHE_VERSION, sessions: [...kept, [key, current]] })
  return true
}
