import { libraryBuild } from "@armory/config/tsup"

// The synchronous probe's worker is its own entry: `probeDriverSync` starts a worker thread on that file.
export default libraryBuild({ entry: ["src/index.ts", "src/syncRunnerWorker.ts"] })
