import { libraryBuild } from "@armory/config/tsup"

// Entries over one set of modules: split, so that both import the same classes (an error thrown
// through `/backend` is `instanceof` the one the main entry exports).
export default libraryBuild({ entry: ["src/index.ts", "src/backend.ts", "src/files.ts", "src/schema.ts"], splitting: true })
