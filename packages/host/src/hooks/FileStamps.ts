import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"

/** A path as it was when a cache was made: its modification time and size, or `-1, -1` when it was not there. */
export type FileStamp = readonly [path: string, mtimeMs: number, size: number]

export const stampOf = (path: string): FileStamp => {
  try {
    const info = statSync(path)
    return [path, info.mtimeMs, info.size]
  } catch {
    return [path, -1, -1]
  }
}

/** Whether every stamped path is exactly as it was: one `stat` each, no directory is listed. */
export const stampsHold = (stamps: ReadonlyArray<FileStamp>): boolean =>
  stamps.every(([path, mtimeMs, size]) => {
    const [, nowMtimeMs, nowSize] = stampOf(path)
    return nowMtimeMs === mtimeMs && nowSize === size
  })

/** A cache file's JSON, or undefined when it is missing or unreadable (a cache is only ever a shortcut). */
export const readCache = (file: string): unknown => {
  try {
    return JSON.parse(readFileSync(file, "utf8"))
  } catch {
    return undefined
  }
}

/** What a cache directory ignores for git: all of itself, so a project never commits it. */
export const CACHE_GITIGNORE = "# Armory's hook cache, rebuilt from the files it stamps: never committed.\n*\n"

/**
 * Writes a cache file whole (a temporary file renamed over it), or not at all when the place is not
 * writable. The directory gets a `.gitignore` of its own the first time.
 */
export const writeCache = (file: string, value: unknown): void => {
  const temporary = `${file}.${process.pid}.tmp`
  try {
    mkdirSync(dirname(file), { recursive: true })
    const ignore = join(dirname(file), ".gitignore")
    if (!existsSync(ignore)) writeFileSync(ignore, CACHE_GITIGNORE)
    writeFileSync(temporary, JSON.stringify(value))
    renameSync(temporary, file)
  } catch {
    // A read-only project is served without the cache, only more slowly.
  }
}

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)

export const isStampList = (value: unknown): value is ReadonlyArray<FileStamp> =>
  Array.isArray(value) &&
  value.every(
    (stamp) => Array.isArray(stamp) && stamp.length === 3 && typeof stamp[0] === "string" && typeof stamp[1] === "number" && typeof stamp[2] === "number"
  )
