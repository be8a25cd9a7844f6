import { createHash } from "node:crypto"
import { join } from "node:path"
import { isRecord, readCache, writeCache } from "./FileStamps.js"

/** The most sessions a project's hook cache remembers; the least recently answered is forgotten first. */
export const MAX_HOOK_SESSIONS = 64

/** The most skills one session's record remembers as given; the earliest given is forgotten first. */
export const MAX_SESSION_SKILLS = 256

const CACHE_VERSION = 2

/** What a host session has been given: the goal snapshot's digest, and each skill handed over whole, by name, at its version. */
interface SessionRecord {
  readonly session: string
  readonly snapshot: string | null
  readonly skills: ReadonlyArray<readonly [name: string, version: string]>
}

const isPairList = (value: unknown): value is ReadonlyArray<readonly [string, string]> =>
  Array.isArray(value) && value.every((entry) => Array.isArray(entry) && entry.length === 2 && typeof entry[0] === "string" && typeof entry[1] === "string")

const isSessionRecord = (value: unknown): value is SessionRecord =>
  isRecord(value) && typeof value["session"] === "string" && (value["snapshot"] === null || typeof value["snapshot"] === "string") && isPairList(value["skills"])

const digest = (text: string): string => createHash("sha256").update(text).digest("base64url")

const sessionsFile = (cacheDirectory: string): string => join(cacheDirectory, "hook-sessions.json")

const readRecords = (cacheDirectory: string): ReadonlyArray<SessionRecord> => {
  const cached = readCache(sessionsFile(cacheDirectory))
  return isRecord(cached) && cached["version"] === CACHE_VERSION && Array.isArray(cached["sessions"]) ? cached["sessions"].filter(isSessionRecord) : []
}

/**
 * What a host session was already given, as a hook's answer is added to the session's conversation
 * and stays there: whether `snapshot` is the snapshot it last had, and the version of each skill it
 * was handed whole. The record is a cache: when it cannot be read, nothing was given.
 */
export const givenToSession = (cacheDirectory: string, session: string, snapshot: string): { readonly snapshotGiven: boolean; readonly skills: ReadonlyMap<string, string> } => {
  const record = readRecords(cacheDirectory).find((entry) => entry.session === digest(session))
  return { snapshotGiven: record?.snapshot === digest(snapshot), skills: new Map(record?.skills ?? []) }
}

/**
 * Records what a hook's answer gave `session`: the snapshot (when one was added) and the skills handed
 * over whole. The least recently answered sessions, and a session's earliest skills, are forgotten
 * past their bounds; a write that fails costs only a repeat next time.
 */
export const recordGiven = (cacheDirectory: string, session: string, given: { readonly snapshot?: string | undefined; readonly skills?: ReadonlyArray<readonly [string, string]> | undefined }): void => {
  if (given.snapshot === undefined && (given.skills ?? []).length === 0) return
  const records = readRecords(cacheDirectory)
  const key = digest(session)
  const previous = records.find((entry) => entry.session === key)
  const skills = new Map(previous?.skills ?? [])
  for (const [name, version] of given.skills ?? []) {
    skills.delete(name)
    skills.set(name, version)
  }
  const record: SessionRecord = {
    session: key,
    snapshot: given.snapshot === undefined ? (previous?.snapshot ?? null) : digest(given.snapshot),
    skills: [...skills].slice(-MAX_SESSION_SKILLS)
  }
  const kept = records.filter((entry) => entry.session !== key).slice(-(MAX_HOOK_SESSIONS - 1))
  writeCache(sessionsFile(cacheDirectory), { version: CACHE_VERSION, sessions: [...kept, record] })
}
