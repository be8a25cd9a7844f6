import { createRequire } from "node:module"

// The CLI is bundled into one ES module; bundled CommonJS dependencies (yaml, …) still call
// `require` for Node's builtins, which an ES module does not have. Imported first by bin.ts.
globalThis.require ??= createRequire(import.meta.url)
