/**
 * The part of the WebAssembly JavaScript API this package uses. Node provides it; TypeScript
 * declares it only with the DOM library, which a Node package does not load.
 */
export interface WasmModule {
  readonly __wasmModule?: never
}

export interface WasmMemory {
  readonly buffer: ArrayBuffer
}

export interface WasmInstance {
  readonly exports: object
}

interface WasmApi {
  readonly Module: abstract new (...args: ReadonlyArray<never>) => WasmModule
  readonly Instance: new (module: WasmModule, imports: object) => WasmInstance
  readonly Memory: new (descriptor: { readonly initial: number; readonly maximum: number }) => WasmMemory
  readonly compile: (bytes: Uint8Array) => Promise<WasmModule>
}

export const Wasm: WasmApi = Reflect.get(globalThis, "WebAssembly") as WasmApi
