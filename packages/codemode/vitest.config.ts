import { packageTestConfig } from "@armory/config/vitest"

// Files run one at a time: the drift test measures the host's timers while a guest spins, and a
// second test file spinning guests on the other core of a 2-core machine would skew it.
export default packageTestConfig({ test: { fileParallelism: false } })
