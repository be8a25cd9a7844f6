/** The variable that names components whose suites a user chose not to run, comma-separated. */
export declare const OPT_OUT_VARIABLE: "ARMORY_TEST_SKIP"
/** Every component a suite may need, by the name `ARMORY_TEST_SKIP` uses. */
export declare const COMPONENTS: { readonly browser: string; readonly pg: string; readonly hosts: string; readonly registry: string }
/** The agent hosts the host suites drive, pinned. */
export declare const TEST_HOSTS: {
  readonly "claude-code": { readonly package: string; readonly version: string; readonly bin: string }
  readonly opencode: { readonly package: string; readonly version: string; readonly bin: string }
  readonly codex: { readonly package: string; readonly version: string; readonly bin: string }
}
export type TestHost = keyof typeof TEST_HOSTS
/** Where the host binaries are installed: `ARMORY_TEST_HOSTS_DIR`, else the user's cache. */
export declare const testHostsDirectory: (env?: NodeJS.ProcessEnv) => string
/** A pinned package's install folder, its manifest and its binary. */
export interface PinnedLocation {
  readonly package: string
  readonly version: string
  readonly bin: string
  readonly directory: string
  readonly manifest: string
  readonly path: string
}
/** A pinned host's install folder and the binary in it. */
export declare const testHostLocation: (name: TestHost, env?: NodeJS.ProcessEnv) => PinnedLocation
/** The npm registry the release rehearsal publishes to, pinned. */
export declare const TEST_REGISTRY: { readonly package: string; readonly version: string; readonly bin: string }
/** The pinned registry's install folder, its manifest and its binary (a Node script). */
export declare const testRegistryLocation: (env?: NodeJS.ProcessEnv) => PinnedLocation
export type Component = keyof typeof COMPONENTS
export declare const DEFAULT_CHROMIUM: string
export declare const DEFAULT_TEST_DATABASE_URL: string
/** A name in `ARMORY_TEST_SKIP` that is not a component. */
export declare class UnknownOptOut extends Error {
  constructor(names: ReadonlyArray<string>)
}
/** The components a user opted out of; throws {@link UnknownOptOut} for a name that is none. */
export declare const optOuts: (env?: NodeJS.ProcessEnv) => ReadonlyArray<Component>
/** The text every opted-out suite carries in its title. */
export declare const optOutMarker: (component: Component) => string
export declare const OPT_OUT_MARKER: RegExp
/** The Chromium the browser suites launch: `ARMORY_CHROMIUM` when set, else Debian's. */
export declare const chromiumLocation: (env?: NodeJS.ProcessEnv) => { readonly path: string; readonly source: "ARMORY_CHROMIUM" | "default" }
/** The PostgreSQL database the suites use: `ARMORY_GOALS_TEST_DATABASE_URL` when set. */
export declare const testDatabaseUrl: (env?: NodeJS.ProcessEnv) => string
