import { accessSync, constants } from "node:fs"
import { describe, expect, it } from "vitest"
import { chromiumLocation, COMPONENTS, OPT_OUT_VARIABLE, optOutMarker, optOuts, TEST_HOSTS, testHostLocation, testRegistryLocation } from "./components.js"

/**
 * How every suite launches Chromium: headless, no sandbox (root in CI), and nothing that reaches
 * for the network on its own (the machines have none but the package registries).
 */
export const CHROMIUM_FLAGS = Object.freeze([
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage"
])

/** Why the browser suites cannot launch Chromium here, or `null` when they can. */
export const chromiumMissing = (env = process.env) => {
  const { path, source } = chromiumLocation(env)
  try {
    accessSync(path, constants.X_OK)
    return null
  } catch {
    return (
      `no executable Chromium at ${path}${source === "ARMORY_CHROMIUM" ? " (from ARMORY_CHROMIUM)" : ""}: ` +
      `\`npm test\` installs Debian's as root, or run \`apt-get install -y chromium\`, ` +
      `or point ARMORY_CHROMIUM at a Chromium binary, or opt out with ${OPT_OUT_VARIABLE}=browser`
    )
  }
}

/** The Chromium binary to launch; throws, naming what is missing and how to get it, when there is none. */
export const chromiumExecutable = (env = process.env) => {
  const missing = chromiumMissing(env)
  if (missing !== null) throw new Error(missing)
  return chromiumLocation(env).path
}

/** Why the host suites cannot run a pinned host here, or `null` when every one is installed. */
export const hostsMissing = (env = process.env) => {
  const missing = Object.keys(TEST_HOSTS)
    .map((name) => testHostLocation(name, env))
    .filter((host) => {
      try {
        accessSync(host.path, constants.X_OK)
        return false
      } catch {
        return true
      }
    })
  return missing.length === 0
    ? null
    : `no ${missing.map((host) => `${host.package}@${host.version} at ${host.path}`).join(", ")}: \`npm test\` installs them, ` +
        `or run \`npm install ${missing.map((host) => `${host.package}@${host.version}`).join(" ")}\` in that folder, or opt out with ${OPT_OUT_VARIABLE}=hosts`
}

/** A pinned host's binary; throws, naming what is missing and how to get it, when it is not installed. */
export const hostExecutable = (name, env = process.env) => {
  const missing = hostsMissing(env)
  if (missing !== null) throw new Error(missing)
  return testHostLocation(name, env).path
}

/** Why the release rehearsal cannot start the pinned registry here, or `null` when it can. */
export const registryMissing = (env = process.env) => {
  const registry = testRegistryLocation(env)
  try {
    accessSync(registry.path, constants.X_OK)
    return null
  } catch {
    return (
      `no ${registry.package}@${registry.version} at ${registry.path}: \`npm test\` installs it, or run ` +
      `\`npm install --prefix ${registry.directory} ${registry.package}@${registry.version}\`, or opt out with ${OPT_OUT_VARIABLE}=registry`
    )
  }
}

/** The pinned registry's entry script (run it with the suites' Node); throws, naming the fix, when it is not installed. */
export const registryExecutable = (env = process.env) => {
  const missing = registryMissing(env)
  if (missing !== null) throw new Error(missing)
  return testRegistryLocation(env).path
}

const MISSING = { browser: chromiumMissing, hosts: hostsMissing, registry: registryMissing }

const missingComponent = (component) => MISSING[component]?.() ?? null

/**
 * Registers a suite that drives a real component. A user who opted out (`ARMORY_TEST_SKIP`) gets
 * it skipped under a title that says so, which the test summary reports; a missing component is a
 * failing test that names it, never a skip. A component that is present but not answering (a
 * stopped PostgreSQL) fails the suite's own tests with the connection error.
 */
export const describeRequiring = (component, title, body) => {
  if (!Object.hasOwn(COMPONENTS, component)) throw new Error(`unknown component ${JSON.stringify(component)}`)
  if (optOuts().includes(component)) return describe.skip(`${title} ${optOutMarker(component)}`, () => {
    body()
  })
  const missing = missingComponent(component)
  if (missing !== null) {
    return describe(`${title}`, () => {
      it(`needs ${COMPONENTS[component]}`, () => {
        expect.unreachable(missing)
      })
    })
  }
  return describe(`${title}`, () => {
    body()
  })
}
