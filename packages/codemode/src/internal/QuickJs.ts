import { readFile } from "node:fs/promises"
import { createRequire } from "node:module"
import releaseSync from "@jitl/quickjs-wasmfile-release-sync"
import {
  type CustomizeVariantOptions,
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSSyncVariant,
  type QuickJSWASMModule
} from "quickjs-emscripten-core"
import { Wasm, type WasmInstance, type WasmMemory, type WasmModule } from "./Wasm.js"
import { staticBytesOf, withMemoryMinimum } from "./WasmBinary.js"

const isSyncVariant = (value: unknown): value is QuickJSSyncVariant =>
  typeof value === "object" && value !== null && Reflect.get(value, "type") === "sync"

// Node's ESM entry of the variant package exports the variant itself as `default`; its typings
// describe the CommonJS entry, where it sits one level down.
const candidate: unknown = releaseSync
const variant: QuickJSSyncVariant = isSyncVariant(candidate) ? candidate : releaseSync.default

const WASM_PAGE_BYTES = 64 * 1024

/**
 * The memory an instance starts with: the engine's static data and stack (about 5.1 MiB in this
 * build) and a first heap that a fresh realm fits in. The build itself declares 16 MiB; see
 * `WasmBinary.ts` for why an instance starts smaller.
 */
export const INITIAL_MEMORY_BYTES = 6 * 1024 * 1024

/** The heap a fresh realm (its runtime, context and prelude) needs within the initial memory. */
const REALM_HEAP_BYTES = 512 * 1024

const WASM_SPECIFIER = "@jitl/quickjs-wasmfile-release-sync/wasm"

/**
 * The .wasm file, located through this package's own manifest rather than next to the calling
 * script: when a host bundles this package into one file, the bundle's directory holds no .wasm,
 * but `@armory/codemode` still resolves to the installed package and its dependencies. A bundle
 * that ships without the package (the `armory` CLI) depends on the binary itself.
 */
const wasmLocation = (): string => {
  let manifest: string
  try {
    manifest = import.meta.resolve("@armory/codemode/package.json")
  } catch {
    return createRequire(import.meta.url).resolve(WASM_SPECIFIER)
  }
  return createRequire(manifest).resolve(WASM_SPECIFIER)
}

let compiling: Promise<WasmModule> | undefined

/**
 * The QuickJS WebAssembly module, compiled once per process on first use and shared with every
 * sandbox worker (a compiled module crosses to a worker without being compiled again). Compiled code
 * holds no state: each execution instantiates it with a memory of its own.
 */
export const compileQuickJs = (): Promise<WasmModule> => {
  compiling ??= readFile(wasmLocation()).then(
    (bytes) => {
      const staticBytes = staticBytesOf(bytes)
      if (staticBytes + REALM_HEAP_BYTES > INITIAL_MEMORY_BYTES) {
        throw new RangeError(`the QuickJS build's static data and stack take ${staticBytes} bytes, more than the sandbox starts an instance with`)
      }
      return Wasm.compile(withMemoryMinimum(bytes, INITIAL_MEMORY_BYTES / WASM_PAGE_BYTES))
    },
    (error: unknown) => {
      compiling = undefined
      throw error
    }
  )
  return compiling
}

/** How much linear memory an instance may grow to: the guest's limit over what the engine itself starts with. */
export const memoryCapBytes = (memoryLimitBytes: number): number =>
  Math.ceil((INITIAL_MEMORY_BYTES + memoryLimitBytes) / WASM_PAGE_BYTES) * WASM_PAGE_BYTES

/** A QuickJS instance of its own: fresh linear memory capped at `capBytes`, shared with nothing. */
export interface QuickJsInstance {
  readonly module: QuickJSWASMModule
  readonly memory: WasmMemory
  readonly capBytes: number
}

/**
 * Instantiates the compiled module with a new linear memory whose maximum is `capBytes`: an
 * allocation past it fails inside the guest, whatever kind of memory it is (objects, strings,
 * ArrayBuffer backing stores). The instance serves one execution and is dropped with it.
 */
export const instantiateQuickJs = async (wasmModule: WasmModule, capBytes: number): Promise<QuickJsInstance> => {
  const memory = new Wasm.Memory({ initial: INITIAL_MEMORY_BYTES / WASM_PAGE_BYTES, maximum: capBytes / WASM_PAGE_BYTES })
  const options: Record<string, unknown> = {
    // The engine's own output (an abort message, say) goes nowhere: a library writes nothing to stdout or stderr.
    print: () => undefined,
    printErr: () => undefined,
    // Instantiated synchronously: the module is compiled already, and the asynchronous path would
    // spread building an instance over several turns of the worker's event loop.
    instantiateWasm: (imports: object, onSuccess: (instance: WasmInstance) => void) => {
      const instance = new Wasm.Instance(wasmModule, imports)
      onSuccess(instance)
      return instance.exports
    }
  }
  const emscriptenModule = options as NonNullable<CustomizeVariantOptions["emscriptenModule"]>
  const module = await newQuickJSWASMModuleFromVariant(newVariant(variant, { wasmMemory: memory, emscriptenModule }))
  return { module, memory, capBytes }
}
