import { defineConfig, mergeConfig } from "vitest/config"

/**
 * The test setup every package extends. Each run writes `test-results/vitest.json` (vitest's JSON
 * reporter), which the workspace summary adds up; test timeouts are generous because the real-
 * component suites start processes, servers and a browser on a 2-core machine.
 */
export const packageTestConfig = (overrides = {}) =>
  mergeConfig(
    defineConfig({
      test: {
        include: ["test/**/*.test.{ts,js}"],
        reporters: ["default", "json"],
        outputFile: { json: "test-results/vitest.json" },
        testTimeout: 30_000,
        hookTimeout: 60_000,
        pool: "forks",
        maxWorkers: 2
      }
    }),
    overrides
  )
