// The real components that some test suites drive, where the tests look for each, and the opt-outs
// a user may ask for. Plain Node with no dependencies: the bootstrap reads it before anything is
// installed, on the machine's own (possibly old) Node.

/** The variable that names components whose suites a user chose not to run, comma-separated. */
export const OPT_OUT_VARIABLE = "ARMORY_TEST_SKIP"

/** Every component a suite may need, by the name `ARMORY_TEST_SKIP` uses. */
export const COMPONENTS = {
  browser: "a headless Chromium",
  pg: "a PostgreSQL server",
  hosts: "the agent hosts' own binaries (Claude Code, OpenCode, Codex)",
  registry: "a local npm registry (Verdaccio) for the release rehearsal"
}

/**
 * The agent hosts the host suites drive, pinned: each ships its native binary inside a registry
 * package, installed by `npm test` into a cache outside the repository.
 */
export const TEST_HOSTS = {
  "claude-code": { package: "@anthropic-ai/claude-code", version: "2.1.332", bin: "claude" },
  opencode: { package: "opencode-ai", version: "1.18.33", bin: "opencode" },
  codex: { package: "@openai/codex", version: "0.171.0", bin: "codex" }
}

/**
 * The npm registry the release rehearsal publishes every package to, pinned: Verdaccio, installed by
 * `npm test` into the same cache as the hosts and run on 127.0.0.1 by the test itself (it needs Node
 * 22 or newer, which the suites run on).
 */
export const TEST_REGISTRY = { package: "verdaccio", version: "6.10.4", bin: "verdaccio" }

/** Where Debian installs Chromium; `ARMORY_CHROMIUM` points elsewhere. */
export const DEFAULT_CHROMIUM = "/usr/bin/chromium"

/** The database the PostgreSQL suites work in (each run in schemas of its own). */
export const DEFAULT_TEST_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/test"

/** A name in `ARMORY_TEST_SKIP` that is not a component: the user meant something else. */
export class UnknownOptOut extends Error {
  constructor(names) {
    super(
      `${OPT_OUT_VARIABLE} names ${names.map((name) => JSON.stringify(name)).join(", ")}, ` +
        `which ${names.length === 1 ? "is not a component" : "are not components"}; ` +
        `the components are ${Object.keys(COMPONENTS).join(", ")}`
    )
    this.name = "UnknownOptOut"
  }
}

/** The components a user opted out of; throws {@link UnknownOptOut} for a name that is none. */
export const optOuts = (env = process.env) => {
  const names = (env[OPT_OUT_VARIABLE] ?? "")
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "")
  const unknown = names.filter((name) => !Object.hasOwn(COMPONENTS, name))
  if (unknown.length > 0) throw new UnknownOptOut(unknown)
  return [...new Set(names)]
}

/** The text every opted-out suite carries in its title, so the test summary can say why it skipped. */
export const optOutMarker = (component) => `[opted out: ${OPT_OUT_VARIABLE}=${component}]`

/** Finds the component named in an opt-out marker within a test title. */
export const OPT_OUT_MARKER = /\[opted out: ARMORY_TEST_SKIP=([a-z]+)\]/

/** The Chromium the browser suites launch: `ARMORY_CHROMIUM` when set, else Debian's. */
export const chromiumLocation = (env = process.env) => {
  const configured = env["ARMORY_CHROMIUM"]
  return configured !== undefined && configured !== ""
    ? { path: configured, source: "ARMORY_CHROMIUM" }
    : { path: DEFAULT_CHROMIUM, source: "default" }
}

/** The PostgreSQL database the suites use: `ARMORY_GOALS_TEST_DATABASE_URL` when set. */
export const testDatabaseUrl = (env = process.env) => {
  const configured = env["ARMORY_GOALS_TEST_DATABASE_URL"]
  return configured !== undefined && configured !== "" ? configured : DEFAULT_TEST_DATABASE_URL
}

/** Where the host binaries are installed: `ARMORY_TEST_HOSTS_DIR`, else the user's cache (`$XDG_CACHE_HOME`, default `~/.cache`). */
export const testHostsDirectory = (env = process.env) => {
  const configured = env["ARMORY_TEST_HOSTS_DIR"]
  if (configured !== undefined && configured !== "") return configured
  const cache = env["XDG_CACHE_HOME"] !== undefined && env["XDG_CACHE_HOME"] !== "" ? env["XDG_CACHE_HOME"] : `${env["HOME"] ?? "/root"}/.cache`
  return `${cache}/armory/test-hosts`
}

/** A pinned package's install folder in the cache, its manifest and its binary. */
const pinnedLocation = (pinned, env) => {
  const directory = `${testHostsDirectory(env)}/${pinned.package.replace("/", "+")}@${pinned.version}`
  return { ...pinned, directory, manifest: `${directory}/node_modules/${pinned.package}/package.json`, path: `${directory}/node_modules/.bin/${pinned.bin}` }
}

/** A pinned host's install folder and the binary in it. */
export const testHostLocation = (name, env = process.env) => pinnedLocation(TEST_HOSTS[name], env)

/** The pinned registry's install folder, its manifest and its binary (a Node script). */
export const testRegistryLocation = (env = process.env) => pinnedLocation(TEST_REGISTRY, env)
