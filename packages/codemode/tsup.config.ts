import { libraryBuild } from "@armory/config/tsup"

// The worker is its own entry: executions run on a worker thread that loads it by file.
export default libraryBuild({ entry: ["src/index.ts", "src/worker.ts"] })
