/**
 * Reads and adjusts the two facts of the QuickJS `.wasm` binary the sandbox depends on: where its
 * static data and stack end (the initial value of its one global, the stack pointer, which starts at
 * the top of the stack and grows down towards the data), and the minimum size it declares for the
 * linear memory it imports.
 *
 * The build declares a 16 MiB minimum, of which the engine's static data and stack take about 5 MiB
 * and the rest is heap that a realm mostly never touches. Every instance commits its minimum up
 * front, and the runtime counts each committed byte towards collecting garbage, so with a fresh
 * instance per execution the unused 11 MiB made allocating and collecting memories most of what an
 * execution cost. The declared minimum is lowered before the binary is compiled; the heap still grows
 * on demand, up to the instance's cap, exactly as it did past 16 MiB.
 */

const SECTION_IMPORT = 2
const SECTION_GLOBAL = 6
const IMPORT_FUNCTION = 0
const IMPORT_TABLE = 1
const IMPORT_MEMORY = 2
const IMPORT_GLOBAL = 3
const OPCODE_I32_CONST = 0x41

class MalformedWasm extends Error {
  constructor(what: string) {
    super(`the QuickJS .wasm file is not what the sandbox expects: ${what}`)
  }
}

interface Cursor {
  offset: number
}

const readUnsigned = (bytes: Uint8Array, cursor: Cursor): number => {
  let result = 0
  let shift = 0
  for (;;) {
    const byte = bytes[cursor.offset++]
    if (byte === undefined || shift > 28) throw new MalformedWasm("a number runs past its section")
    result += (byte & 0x7f) * 2 ** shift
    if ((byte & 0x80) === 0) return result
    shift += 7
  }
}

const readSigned32 = (bytes: Uint8Array, cursor: Cursor): number => {
  let result = 0
  let shift = 0
  for (;;) {
    const byte = bytes[cursor.offset++]
    if (byte === undefined || shift > 28) throw new MalformedWasm("a number runs past its section")
    result |= (byte & 0x7f) << shift
    shift += 7
    if ((byte & 0x80) === 0) return shift < 32 && (byte & 0x40) !== 0 ? result | (-1 << shift) : result
  }
}

const skipName = (bytes: Uint8Array, cursor: Cursor) => {
  const length = readUnsigned(bytes, cursor)
  cursor.offset += length
}

/** Skips a table's or memory's limits: a flags byte, the minimum, and the maximum when flagged. */
const skipLimits = (bytes: Uint8Array, cursor: Cursor) => {
  const flags = readUnsigned(bytes, cursor)
  readUnsigned(bytes, cursor)
  if ((flags & 1) !== 0) readUnsigned(bytes, cursor)
}

/** Each section's id and where its contents start and end. */
const sectionsOf = (bytes: Uint8Array): ReadonlyArray<{ readonly id: number; readonly start: number; readonly end: number }> => {
  const sections: Array<{ id: number; start: number; end: number }> = []
  const cursor = { offset: 8 }
  while (cursor.offset < bytes.length) {
    const id = bytes[cursor.offset++] ?? 0
    const size = readUnsigned(bytes, cursor)
    sections.push({ id, start: cursor.offset, end: cursor.offset + size })
    cursor.offset += size
  }
  return sections
}

const sectionStart = (bytes: Uint8Array, id: number, name: string): number => {
  const section = sectionsOf(bytes).find((candidate) => candidate.id === id)
  if (section === undefined) throw new MalformedWasm(`it has no ${name} section`)
  return section.start
}

/** Where the engine's static data and stack end: the stack pointer's initial value. */
export const staticBytesOf = (bytes: Uint8Array): number => {
  const cursor = { offset: sectionStart(bytes, SECTION_GLOBAL, "global") }
  if (readUnsigned(bytes, cursor) !== 1) throw new MalformedWasm("it defines more than the stack pointer as a global")
  cursor.offset += 2
  if (bytes[cursor.offset++] !== OPCODE_I32_CONST) throw new MalformedWasm("its stack pointer does not start at a constant")
  const top = readSigned32(bytes, cursor)
  if (top <= 0) throw new MalformedWasm("its stack pointer starts at no address")
  return top
}

/**
 * A copy of the binary whose imported memory declares `pages` as its minimum. The minimum is
 * rewritten in the bytes it occupied (a padded LEB128, which the format allows), so no section
 * moves and nothing else changes.
 */
export const withMemoryMinimum = (bytes: Uint8Array, pages: number): Uint8Array => {
  const copy = Uint8Array.from(bytes)
  const cursor = { offset: sectionStart(copy, SECTION_IMPORT, "import") }
  const count = readUnsigned(copy, cursor)
  for (let index = 0; index < count; index++) {
    skipName(copy, cursor)
    skipName(copy, cursor)
    const kind = copy[cursor.offset++]
    if (kind === IMPORT_FUNCTION) readUnsigned(copy, cursor)
    else if (kind === IMPORT_TABLE) {
      cursor.offset++
      skipLimits(copy, cursor)
    } else if (kind === IMPORT_GLOBAL) cursor.offset += 2
    else if (kind === IMPORT_MEMORY) {
      readUnsigned(copy, cursor)
      const start = cursor.offset
      readUnsigned(copy, cursor)
      const width = cursor.offset - start
      if (pages >= 2 ** (7 * width)) throw new MalformedWasm(`its memory minimum has no room for ${pages} pages`)
      for (let byte = 0; byte < width; byte++) {
        const bits = Math.floor(pages / 2 ** (7 * byte)) & 0x7f
        copy[start + byte] = byte < width - 1 ? bits | 0x80 : bits
      }
      return copy
    } else throw new MalformedWasm(`an import of unknown kind ${String(kind)}`)
  }
  throw new MalformedWasm("it imports no memory")
}
