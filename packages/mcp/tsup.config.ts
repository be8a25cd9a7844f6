import { libraryBuild } from "@armory/config/tsup"

// `Initialize` is an entry of its own: `armory mcp` answers `initialize` from it before Effect loads.
export default libraryBuild({ entry: ["src/index.ts", "src/Initialize.ts"] })
