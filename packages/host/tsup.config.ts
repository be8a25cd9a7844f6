import { libraryBuild } from "@armory/config/tsup"

// `/hooks` is its own entry: a hook process loads it on every prompt, so it must not load the rest.
export default libraryBuild({ entry: ["src/index.ts", "src/hooks.ts"] })
