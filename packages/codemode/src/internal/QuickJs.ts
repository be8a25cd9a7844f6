import { createRequire } from "node:module"
import releaseSync from "@jitl/quickjs-wasmfile-release-sync"
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSSyncVariant,
  type QuickJSWASMModule
} from "quickjs-emscripten-core"

const isSyncVariant = (value: unknown): value is QuickJSSyncVariant =>
  typeof value === "object" && value !== null && Reflect.get(value, "type") === "sync"

// Node's ESM entry of the variant package exports the variant itself as `default`; its typings
// describe the CommonJS entry, where it sits one level down.
const candidate: unknown = releaseSync
const variant: QuickJSSyncVariant = isSyncVariant(candidate) ? candidate : releaseSync.default

/**
 * The .wasm file is located through this package's own manifest rather than next to the calling
 * script: when a host bundles this package into one file, the bundle's directory holds no .wasm,
 * but `@armory/codemode` still resolves to the installed package and its dependencies.
 */
const wasmLocation = (): string => {
  const manifest = import.meta.resolve("@armory/codemode/package.json")
  return createRequire(manifest).resolve("@jitl/quickjs-wasmfile-release-sync/wasm")
}

let loading: Promise<QuickJSWASMModule> | undefined

/** The QuickJS WebAssembly module, compiled once per thread. */
export const loadQuickJs = (): Promise<QuickJSWASMModule> => {
  loading ??= newQuickJSWASMModuleFromVariant(newVariant(variant, { wasmLocation: wasmLocation() }))
  return loading
}
