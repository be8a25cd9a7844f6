import { libraryBuild } from "@armory/config/tsup"

// The Effect client is its own entry, so the fetch client's entry loads neither Effect nor the contract.
export default libraryBuild({ entry: ["src/index.ts", "src/effect.ts"] })
