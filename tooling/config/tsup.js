import { defineConfig } from "tsup"

const shared = {
  format: ["esm"],
  platform: "node",
  target: "node22",
  sourcemap: true,
  clean: true,
  splitting: false,
  treeshake: true
}

/** A published library: ESM with declarations, dependencies left external. */
export const libraryBuild = (overrides = {}) =>
  defineConfig({ ...shared, entry: ["src/index.ts"], dts: true, ...overrides })

/** An executable: one ESM entry per bin, with a shebang, no declarations. */
export const appBuild = (overrides = {}) =>
  defineConfig({
    ...shared,
    entry: ["src/bin.ts"],
    dts: false,
    banner: { js: "#!/usr/bin/env node" },
    // A private executable: bundling its dependencies lets the bundler drop the unused parts
    // of Effect's barrels, which otherwise dominate start-up time.
    noExternal: [/.*/],
    ...overrides
  })
