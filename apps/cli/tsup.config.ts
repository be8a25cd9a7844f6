import { appBuild } from "@armory/config/tsup"

// playwright-core loads its own files at run time, so it stays a real dependency instead of being bundled.
// Split: `bin.js` only picks a path, and `armory hook` loads its own small chunk, not the whole CLI.
export default appBuild({ noExternal: [/^(?!playwright-core)/], splitting: true })
