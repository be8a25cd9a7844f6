import { readFile } from "node:fs/promises"
import { createRequire } from "node:module"
import { describe, expect, it } from "vitest"
import { INITIAL_MEMORY_BYTES } from "../src/internal/QuickJs.js"
import { staticBytesOf, withMemoryMinimum } from "../src/internal/WasmBinary.js"

const PAGE = 64 * 1024
const wasmFile = createRequire(import.meta.url).resolve("@jitl/quickjs-wasmfile-release-sync/wasm")
const bytes = new Uint8Array(await readFile(wasmFile))
const webAssembly = Reflect.get(globalThis, "WebAssembly") as {
  readonly Module: new (bytes: Uint8Array) => object
  readonly Memory: new (descriptor: { initial: number; maximum: number }) => object
  readonly Instance: new (module: object, imports: object) => object
}

const stub = () => 0

/** Instantiates with the given memory and stub imports: only the memory import's limits are checked before the start function runs. */
const instantiateWith = (binary: Uint8Array, pages: number) => {
  const module = new webAssembly.Module(binary)
  const imports = { a: new Proxy({}, { get: (_, name) => (name === "a" ? new webAssembly.Memory({ initial: pages, maximum: 32768 }) : stub) }) }
  return () => new webAssembly.Instance(module, imports)
}

describe("the QuickJS binary as the sandbox adjusts it", () => {
  it("reads where the engine's static data and stack end, within the memory an instance starts with", () => {
    const staticBytes = staticBytesOf(bytes)
    expect(staticBytes).toBeGreaterThan(1024 * 1024)
    expect(staticBytes).toBeLessThan(INITIAL_MEMORY_BYTES)
  })

  it("lowers the declared memory minimum in place, leaving the rest of the binary as it was", () => {
    const pages = INITIAL_MEMORY_BYTES / PAGE
    expect(instantiateWith(bytes, pages)).toThrow(/smaller than the declared initial/)
    const lowered = withMemoryMinimum(bytes, pages)
    expect(lowered).toHaveLength(bytes.length)
    expect(lowered.reduce((changed, byte, index) => changed + (byte === bytes[index] ? 0 : 1), 0)).toBeLessThanOrEqual(2)
    expect(instantiateWith(lowered, pages - 1)).toThrow(/smaller than the declared initial/)
    expect(instantiateWith(lowered, pages)).not.toThrow(/declared initial/)
  })

  it("refuses a binary that is not the one it expects, naming what is missing", () => {
    const empty = Uint8Array.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00])
    expect(() => staticBytesOf(empty)).toThrow("it has no global section")
    expect(() => withMemoryMinimum(empty, 96)).toThrow("it has no import section")
    const truncated = bytes.subarray(0, 12)
    expect(() => staticBytesOf(truncated)).toThrow(/not what the sandbox expects/)
    expect(() => withMemoryMinimum(bytes, 2 ** 21)).toThrow("no room for")
  })
})
