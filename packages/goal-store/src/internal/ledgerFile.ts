import { closeSync, constants, fdatasync, fdatasyncSync, fstatSync, fsyncSync, ftruncateSync, statSync, writeSync } from "node:fs"
import { dirname } from "node:path"
import type { FaultHooks } from "../Faults.js"
import { fsyncDirectory } from "../Snapshot.js"
import { NotRegularFile, openRegularFile, readRange } from "./regularFile.js"

/** What a reader needs of the ledger file: its size, and its inode to notice it was replaced. */
export interface LedgerFileInfo {
  readonly size: number
  readonly ino: number
}

/** Reads `length` bytes at `position` (fewer at the end of the file). */
export const readLedgerRange = (path: string, position: number, length: number): Uint8Array => {
  const fd = openRegularFile(path, constants.O_RDONLY)
  if (fd === undefined) return new Uint8Array()
  try {
    return readRange(fd, position, length)
  } finally {
    closeSync(fd)
  }
}

export const statLedger = (path: string): LedgerFileInfo | undefined => {
  const info = statSync(path, { throwIfNoEntry: false })
  if (info !== undefined && !info.isFile()) throw new NotRegularFile({ file: path })
  return info === undefined ? undefined : { size: info.size, ino: info.ino }
}

/** Read-write and append-only: every write lands at the end of the file, wherever it is by then. */
const LEDGER_FLAGS = constants.O_RDWR | constants.O_APPEND

/** Opens an existing ledger; `undefined` when there is none yet. */
const openExisting = (path: string): number | undefined => openRegularFile(path, LEDGER_FLAGS)

/** fdatasync on the thread pool: the commit point takes milliseconds on a slow disk, and the event loop stays free meanwhile. */
const fdatasyncOffLoop = (fd: number): Promise<void> =>
  new Promise((resolve, reject) => fdatasync(fd, (error) => (error === null ? resolve() : reject(error))))

/** Cuts an open ledger back to its committed bytes (dropping a torn tail or a failed append) and makes that durable. */
const truncateOpenLedger = (fd: number, committedBytes: number): void => {
  ftruncateSync(fd, committedBytes)
  fsyncSync(fd)
}

/** Undoes a failed append: the file is cut back to `committedBytes`, so it leaves no partial event. */
const cutBackAndThrow = (fd: number, committedBytes: number) => (error: unknown): never => {
  truncateOpenLedger(fd, committedBytes)
  throw error
}

/** Writes one line to an open ledger with a single `write()`; the sync that follows is the commit point. */
const writeLine = (fd: number, bytes: Uint8Array, committedBytes: number, faults: FaultHooks): void => {
  try {
    faults.beforeStep?.("ledger-write")
    const written = writeSync(fd, bytes)
    if (written !== bytes.length) throw new Error(`short write: ${written} of ${bytes.length} bytes`)
    faults.beforeStep?.("ledger-fsync")
  } catch (error) {
    cutBackAndThrow(fd, committedBytes)(error)
  }
}

/**
 * Appends one line and syncs it, on this thread. `fdatasync` is enough: it writes the data and the
 * file's new size, all a reader needs; only times are left to the next journal commit.
 */
const appendLine = (fd: number, bytes: Uint8Array, committedBytes: number, faults: FaultHooks): void => {
  writeLine(fd, bytes, committedBytes, faults)
  try {
    fdatasyncSync(fd)
  } catch (error) {
    cutBackAndThrow(fd, committedBytes)(error)
  }
}

/** `appendLine` with the sync on the thread pool, so the event loop stays free while it commits. */
const appendLineOffLoop = (fd: number, bytes: Uint8Array, committedBytes: number, faults: FaultHooks): Promise<void> => {
  writeLine(fd, bytes, committedBytes, faults)
  return fdatasyncOffLoop(fd).catch(cutBackAndThrow(fd, committedBytes))
}

/** How the ledger is read: by path for readers, through the open file during a locked write cycle. */
export interface LedgerSource {
  readonly stat: () => LedgerFileInfo | undefined
  readonly read: (position: number, length: number) => Uint8Array
}

/**
 * The ledger as an open file, for the write cycles of one hold of the session lock: opened once the
 * lock is held and used for the size check, reading what other writers appended, the append and its
 * sync, instead of opening the file by path for each. Opened after the lock is taken, it is the file
 * every writer sees at that path until the lock is released (repair replaces the ledger only under
 * it); a holder still checks `atPath` before each cycle, against a file replaced by hand.
 */
export interface OpenLedger extends LedgerSource {
  /**
   * Appends and fsyncs one line (creating the ledger if it did not exist); answers the file's inode.
   * The common write — to a ledger that exists, synced on this thread — answers it at once; only a
   * sync on the thread pool (`offload`) or the first write's directory sync answers a Promise.
   */
  readonly append: (bytes: Uint8Array, committedBytes: number, faults: FaultHooks, offload: boolean) => number | Promise<number>
  readonly truncate: (committedBytes: number) => void
  /**
   * Whether the path still names this file (or still names none, if there was none): kept open across
   * writes, it may have been replaced. When it does, the next `stat` answers from this same look.
   */
  readonly atPath: () => boolean
  readonly close: () => void
}

const createLedger = (path: string): number => {
  const fd = openRegularFile(path, LEDGER_FLAGS | constants.O_CREAT)
  if (fd === undefined) throw new Error(`cannot create ${path}: its directory is gone`)
  return fd
}

export const openLedger = (path: string): OpenLedger => {
  let fd = openExisting(path)
  let ino: number | undefined
  /** What `atPath` found at the path, which is this file: the size the cycle it began reads. */
  let looked: LedgerFileInfo | undefined
  const inode = (open: number) => (ino ??= fstatSync(open).ino)
  return {
    stat: () => {
      if (fd === undefined) return undefined
      const known = looked
      looked = undefined
      if (known !== undefined) return known
      const info = fstatSync(fd)
      ino = info.ino
      return { size: info.size, ino: info.ino }
    },
    read: (position, length) => (fd === undefined ? new Uint8Array() : readRange(fd, position, length)),
    append: (bytes, committedBytes, faults, offload) => {
      looked = undefined
      if (fd !== undefined && !offload) {
        appendLine(fd, bytes, committedBytes, faults)
        return inode(fd)
      }
      const creating = fd === undefined
      const open = (fd ??= createLedger(path))
      return (async () => {
        if (offload) await appendLineOffLoop(open, bytes, committedBytes, faults)
        else appendLine(open, bytes, committedBytes, faults)
        // The ledger's name in its directory is as much a part of the first commit as its bytes.
        if (creating) await fsyncDirectory(dirname(path))
        return inode(open)
      })()
    },
    truncate: (committedBytes) => {
      looked = undefined
      if (fd !== undefined) truncateOpenLedger(fd, committedBytes)
    },
    atPath: () => {
      looked = undefined
      const named = statSync(path, { throwIfNoEntry: false })
      if (fd === undefined) return named === undefined
      if (named?.ino !== inode(fd)) return false
      looked = { size: named.size, ino: named.ino }
      return true
    },
    close: () => {
      if (fd !== undefined) closeSync(fd)
      fd = undefined
    }
  }
}
