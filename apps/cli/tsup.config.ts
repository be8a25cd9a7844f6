import { appBuild } from "@armory/config/tsup"

// playwright-core loads its own files at run time, so it stays a real dependency instead of being bundled.
export default appBuild({ noExternal: [/^(?!playwright-core)/] })
