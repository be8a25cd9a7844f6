import { fileURLToPath } from "node:url"
import { appBuild } from "@armory/config/tsup"

// playwright-core loads its own files at run time, so it stays a real dependency instead of being bundled.
// Split: `bin.js` only picks a path, and `armory hook` loads its own small chunk, not the whole CLI.
// Code mode's sandbox worker is bundled beside the CLI under the name code mode looks for first, so
// the CLI installs no `@armory/codemode` (and with it no Effect) to run code.
export default appBuild({
  entry: { bin: "src/bin.ts", "codemode-worker": fileURLToPath(import.meta.resolve("@armory/codemode/worker")) },
  noExternal: [/^(?!playwright-core)/],
  splitting: true
})
