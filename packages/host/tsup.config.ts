import { libraryBuild } from "@armory/config/tsup"

// `/hooks` and `/opencode` are entries of their own: a hook process loads one on every prompt, and an
// OpenCode plugin loads into OpenCode's process, so neither may load the rest.
export default libraryBuild({ entry: ["src/index.ts", "src/hooks.ts", "src/opencode.ts"] })
