import type { Component, TestHost } from "./components.js"

/** How every suite launches Chromium: headless, no sandbox, no network of its own. */
export declare const CHROMIUM_FLAGS: ReadonlyArray<string>
/** Why the browser suites cannot launch Chromium here, or `null` when they can. */
export declare const chromiumMissing: (env?: NodeJS.ProcessEnv) => string | null
/** The Chromium binary to launch; throws, naming what is missing and how to get it, when there is none. */
export declare const chromiumExecutable: (env?: NodeJS.ProcessEnv) => string
/** Why the host suites cannot run a pinned host here, or `null` when every one is installed. */
export declare const hostsMissing: (env?: NodeJS.ProcessEnv) => string | null
/** A pinned host's binary; throws, naming what is missing and how to get it, when it is not installed. */
export declare const hostExecutable: (name: TestHost, env?: NodeJS.ProcessEnv) => string
/** Why the release rehearsal cannot start the pinned registry here, or `null` when it can. */
export declare const registryMissing: (env?: NodeJS.ProcessEnv) => string | null
/** The pinned registry's entry script (run it with the suites' Node); throws, naming the fix, when it is not installed. */
export declare const registryExecutable: (env?: NodeJS.ProcessEnv) => string
/**
 * Registers a suite that drives a real component: skipped under a marked title when the user opted
 * out with `ARMORY_TEST_SKIP`, a failing test naming the component when it is missing.
 */
export declare const describeRequiring: (component: Component, title: string, body: () => void) => void
