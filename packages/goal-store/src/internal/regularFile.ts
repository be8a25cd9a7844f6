import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs"
import { open } from "node:fs/promises"
import { Data } from "effect"

/**
 * A session file that is something other than a regular file: a FIFO, a device, a directory. It is
 * never read, because reading a FIFO with no writer blocks forever.
 */
export class NotRegularFile extends Data.TaggedError("NotRegularFile")<{ readonly file: string }> {
  override get message() {
    return `${this.file} is not a regular file`
  }
}

/** What a session's state file may be found as, for the reason a load gives. */
export const NOT_REGULAR_REASON = "not a regular file (a FIFO, device or directory): it is left as found and never read"

// Opening a FIFO without a writer blocks; non-blocking, the open returns and the check below refuses it.
const NONBLOCK = constants.O_NONBLOCK ?? 0

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === "ENOENT"

/** Opens `path` with `flags` if it is a regular file; `undefined` when there is none. */
export const openRegularFile = (path: string, flags: number): number | undefined => {
  let fd: number
  try {
    fd = openSync(path, flags | NONBLOCK)
  } catch (error) {
    if (isMissing(error)) return undefined
    throw error
  }
  if (fstatSync(fd).isFile()) return fd
  closeSync(fd)
  throw new NotRegularFile({ file: path })
}

/** Reads up to `length` bytes at `position` of an open file (fewer at its end). */
export const readRange = (fd: number, position: number, length: number): Uint8Array => {
  const buffer = Buffer.allocUnsafe(length)
  let read = 0
  while (read < length) {
    const count = readSync(fd, buffer, read, length - read, position + read)
    if (count === 0) break
    read += count
  }
  return buffer.subarray(0, read)
}

/** The whole of a regular file; `undefined` when there is none. */
export const readRegularFile = (path: string): Buffer | undefined => {
  const fd = openRegularFile(path, constants.O_RDONLY)
  if (fd === undefined) return undefined
  try {
    const bytes = readRange(fd, 0, fstatSync(fd).size)
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  } finally {
    closeSync(fd)
  }
}

/** The whole of a regular file and its inode, read on the thread pool; `undefined` when there is none. */
export const readRegularFileOffLoop = async (path: string): Promise<{ readonly bytes: Buffer; readonly ino: number } | undefined> => {
  const handle = await open(path, constants.O_RDONLY | NONBLOCK).catch((error: unknown) => {
    if (isMissing(error)) return undefined
    throw error
  })
  if (handle === undefined) return undefined
  try {
    const stats = await handle.stat()
    if (!stats.isFile()) throw new NotRegularFile({ file: path })
    const bytes = Buffer.allocUnsafe(stats.size)
    let read = 0
    while (read < stats.size) {
      const { bytesRead } = await handle.read(bytes, read, stats.size - read, read)
      if (bytesRead === 0) break
      read += bytesRead
    }
    return { bytes: bytes.subarray(0, read), ino: stats.ino }
  } finally {
    await handle.close()
  }
}
