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
import { Wasm, type WasmMemory, type WasmModule } from "./Wasm.js"

const isSyncVariant = (value: unknown): value is QuickJSSyncVariant =>
  typeof value === "object" && value !== null && Reflect.get(value, "type") === "sync"

// Node's ESM entry of the variant package exports the variant itself as `default`; its typings
// describe the CommonJS entry, where it sits one level down.
const candidate: unknown = releaseSync
const variant: QuickJSSyncVariant = isSyncVariant(candidate) ? candidate : releaseSync.default

const WASM_PAGE_BYTES = 64 * 1024

/** The memory the QuickJS build starts with (its static data, stack and first heap): its `INITIAL_MEMORY`. */
export const INITIAL_MEMORY_BYTES = 16 * 1024 * 1024

/**
 * The .wasm file is located through this package's own manifest rather than next to the calling
 * script: when a host bundles this package into one file, the bundle's directory holds no .wasm,
 * but `@armory/codemode` still resolves to the installed package and its dependencies.
 */
const wasmLocation = (): string => {
  const manifest = import.meta.resolve("@armory/codemode/package.json")
  return createRequire(manifest).resolve("@jitl/quickjs-wasmfile-release-sync/wasm")
}

let compiling: Promise<WasmModule> | undefined

/**
 * The QuickJS WebAssembly module, compiled once per process on first use and shared with every
 * sandbox worker (a compiled module crosses to a worker without being compiled again). Compiled code
 * holds no state: each execution instantiates it with a memory of its own.
 */
export const compileQuickJs = (): Promise<WasmModule> => {
  compiling ??= readFile(wasmLocation()).then(
    (bytes) => Wasm.compile(bytes),
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
  // The engine's own output (an abort message, say) goes nowhere: a library writes nothing to stdout or stderr.
  const quiet: Record<string, unknown> = { print: () => undefined, printErr: () => undefined }
  const emscriptenModule = quiet as NonNullable<CustomizeVariantOptions["emscriptenModule"]>
  const module = await newQuickJSWASMModuleFromVariant(newVariant(variant, { wasmModule, wasmMemory: memory, emscriptenModule }))
  return { module, memory, capBytes }
}
