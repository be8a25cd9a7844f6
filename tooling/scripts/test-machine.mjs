// Makes the machine ready for the whole test suite before anything runs, the way the quickstart
// makes it ready to build: a Chromium for the browser suites (Debian's package, installed when
// we are root with apt-get), a PostgreSQL accepting connections (the local cluster started when
// it is down), and the pinned agent hosts and npm registry (installed with npm into a cache). When a component cannot be provided, one line names it and the command that would;
// nothing is skipped unless the user opted out with ARMORY_TEST_SKIP. Plain Node with no
// dependencies: it runs before the workspace is installed.
import { spawnSync } from "node:child_process"
import { accessSync, constants, mkdirSync, readdirSync, readFileSync } from "node:fs"
import { chromiumLocation, DEFAULT_CHROMIUM, OPT_OUT_VARIABLE, optOuts, TEST_HOSTS, testDatabaseUrl, testHostLocation, testRegistryLocation } from "../config/components.js"

/** A component the suite needs and this machine cannot provide; `message` is the one line to print. */
export class MachineNotReady extends Error {
  constructor(message) {
    super(message)
    this.name = "MachineNotReady"
  }
}

const LOCAL_HOSTS = new Set(["127.0.0.1", "localhost", "::1", "[::1]"])

/** The real machine: processes, files, the clock. Tests replace it through the same shape. */
export const realMachine = {
  uid: () => (typeof process.getuid === "function" ? process.getuid() : undefined),
  isExecutable: (path) => {
    try {
      accessSync(path, constants.X_OK)
      return true
    } catch {
      return false
    }
  },
  onPath: (command) => spawnSync("sh", ["-c", `command -v ${command}`], { encoding: "utf8" }).status === 0,
  run: (command, args, options = {}) => {
    const result = spawnSync(command, args, { encoding: "utf8", timeout: 600_000, maxBuffer: 64 * 1024 * 1024, ...options })
    return { status: result.status, stdout: result.stdout ?? "", stderr: result.stderr ?? "", error: result.error }
  },
  postgresVersions: () => {
    try {
      return readdirSync("/etc/postgresql").toSorted((a, b) => Number.parseFloat(a) - Number.parseFloat(b))
    } catch {
      return []
    }
  },
  sleep: (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms),
  mkdir: (path) => mkdirSync(path, { recursive: true }),
  /** The `version` a package manifest names, or undefined when there is none to read. */
  manifestVersion: (path) => {
    try {
      return JSON.parse(readFileSync(path, "utf8")).version
    } catch {
      return undefined
    }
  }
}

const lastLine = (result) =>
  (result.error?.message ?? `${result.stderr}\n${result.stdout}`)
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .at(-1) ?? `exit code ${result.status}`

const APT_ENV = { ...process.env, DEBIAN_FRONTEND: "noninteractive" }

const chromiumRuns = (machine, path) => {
  const result = machine.run(path, ["--version"], { timeout: 60_000 })
  return result.status === 0 ? { version: result.stdout.trim() } : { failure: lastLine(result) }
}

const prepareChromium = (machine, env, log) => {
  const { path, source } = chromiumLocation(env)
  const optOut = `or opt out with ${OPT_OUT_VARIABLE}=browser`
  if (!machine.isExecutable(path)) {
    if (source === "ARMORY_CHROMIUM") {
      throw new MachineNotReady(
        `Chromium: ARMORY_CHROMIUM=${path} is not an executable file; point it at a Chromium binary, unset it to use Debian's ${DEFAULT_CHROMIUM}, ${optOut}`
      )
    }
    if (machine.uid() !== 0 || !machine.onPath("apt-get")) {
      throw new MachineNotReady(
        `Chromium is missing (no executable at ${path}) and cannot be installed here (${machine.uid() === 0 ? "no apt-get" : "not root"}): ` +
          `run \`sudo apt-get install -y --no-install-recommends chromium\`, or point ARMORY_CHROMIUM at a Chromium binary, ${optOut}`
      )
    }
    log(`Chromium is missing at ${path}; installing Debian's chromium package for the browser suites (apt-get install -y --no-install-recommends chromium)`)
    for (const args of [["update", "-qq"], ["install", "-y", "-qq", "--no-install-recommends", "chromium"]]) {
      const result = machine.run("apt-get", args, { env: APT_ENV })
      if (result.status !== 0) {
        throw new MachineNotReady(`Chromium: \`apt-get ${args.join(" ")}\` failed: ${lastLine(result)}; install chromium yourself, ${optOut}`)
      }
    }
    if (!machine.isExecutable(path)) {
      throw new MachineNotReady(`Chromium: apt-get installed chromium but there is no executable at ${path}; point ARMORY_CHROMIUM at it, ${optOut}`)
    }
  }
  const runs = chromiumRuns(machine, path)
  if (runs.failure !== undefined) throw new MachineNotReady(`Chromium at ${path} does not start: ${runs.failure}; ${optOut}`)
  log(`Chromium: ${runs.version} at ${path}`)
}

const postgresAddress = (env) => {
  const url = new URL(testDatabaseUrl(env))
  return { host: url.hostname === "" ? "127.0.0.1" : url.hostname, port: url.port === "" ? "5432" : url.port }
}

const postgresReady = (machine, { host, port }) =>
  machine.run("pg_isready", ["-q", "-h", host.replace(/^\[|\]$/g, ""), "-p", port], { timeout: 10_000 }).status === 0

const preparePostgres = (machine, env, log) => {
  const address = postgresAddress(env)
  const where = `${address.host}:${address.port}`
  const advice = `start a server there (user postgres, trust auth, database test), point ARMORY_GOALS_TEST_DATABASE_URL at one, or opt out with ${OPT_OUT_VARIABLE}=pg`
  if (!machine.onPath("pg_isready")) {
    throw new MachineNotReady(`PostgreSQL: pg_isready is not on PATH, so the server at ${where} cannot be checked; install the PostgreSQL client (apt-get install -y postgresql-client), or opt out with ${OPT_OUT_VARIABLE}=pg`)
  }
  if (postgresReady(machine, address)) return
  if (!LOCAL_HOSTS.has(address.host)) throw new MachineNotReady(`PostgreSQL is not accepting connections on ${where}: ${advice}`)
  const version = machine.postgresVersions().at(-1)
  if (version === undefined || !machine.onPath("pg_ctlcluster")) {
    throw new MachineNotReady(`PostgreSQL is not accepting connections on ${where} and there is no local cluster to start (none under /etc/postgresql): ${advice}`)
  }
  const start = ["--skip-systemctl-redirect", version, "main", "start"]
  log(`PostgreSQL is not accepting connections on ${where}; starting the local cluster (pg_ctlcluster ${start.join(" ")})`)
  const started = machine.run("pg_ctlcluster", start, { timeout: 120_000 })
  // A cluster that was already starting answers "already running"; the wait below settles it.
  if (started.status !== 0 && !/already running/i.test(`${started.stdout}${started.stderr}`)) {
    throw new MachineNotReady(`PostgreSQL is not accepting connections on ${where} and \`pg_ctlcluster ${start.join(" ")}\` failed: ${lastLine(started)}; ${advice}`)
  }
  for (let attempt = 0; attempt < 30; attempt++) {
    if (postgresReady(machine, address)) return
    machine.sleep(1_000)
  }
  throw new MachineNotReady(`PostgreSQL: the local cluster ${version}/main was started but ${where} did not accept connections within 30 s; ${advice}`)
}

/** Installs a pinned package with npm into its own folder of the cache when its binary is missing. */
const installPinned = (machine, name, pinned, log, optOut) => {
  if (machine.isExecutable(pinned.path)) return
  const spec = `${pinned.package}@${pinned.version}`
  log(`${spec} is missing at ${pinned.path}; installing it for the suites that need it (npm install ${spec})`)
  machine.mkdir(pinned.directory)
  const installed = machine.run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", "--prefix", pinned.directory, spec], { timeout: 600_000 })
  if (installed.status !== 0 || !machine.isExecutable(pinned.path)) {
    throw new MachineNotReady(`${name}: \`npm install --prefix ${pinned.directory} ${spec}\` failed: ${lastLine(installed)}; install it there yourself, ${optOut}`)
  }
}

/**
 * The pinned agent hosts: each is installed with npm into its own folder of the cache when its
 * binary is missing, then checked to answer its version.
 */
const prepareHosts = (machine, env, log) => {
  const optOut = `or opt out with ${OPT_OUT_VARIABLE}=hosts`
  for (const name of Object.keys(TEST_HOSTS)) {
    const host = testHostLocation(name, env)
    installPinned(machine, name, host, log, optOut)
    const version = machine.run(host.path, ["--version"], { timeout: 60_000 })
    if (version.status !== 0 || !version.stdout.includes(host.version)) {
      throw new MachineNotReady(`${name} at ${host.path} does not answer version ${host.version}: ${lastLine(version)}; remove ${host.directory} to reinstall it, ${optOut}`)
    }
    log(`${name}: ${version.stdout.trim()} at ${host.path}`)
  }
}

/**
 * The pinned registry for the release rehearsal: installed like the hosts, and checked by its
 * manifest (it runs only on the Node the suites use, which this machine's may be older than).
 */
const prepareRegistry = (machine, env, log) => {
  const optOut = `or opt out with ${OPT_OUT_VARIABLE}=registry`
  const registry = testRegistryLocation(env)
  installPinned(machine, "registry", registry, log, optOut)
  const version = machine.manifestVersion(registry.manifest)
  if (version !== registry.version) {
    throw new MachineNotReady(`registry: ${registry.manifest} names version ${version ?? "none"}, not ${registry.version}; remove ${registry.directory} to reinstall it, ${optOut}`)
  }
  log(`registry: ${registry.package} ${version} at ${registry.path}`)
}

/**
 * Checks, and where it can provides, every component the suites need that the user did not opt out
 * of. Throws {@link MachineNotReady} naming the first one it cannot provide, or `UnknownOptOut`.
 * Returns the components that were opted out.
 */
export const prepareTestMachine = ({ env = process.env, machine = realMachine, log = () => {} } = {}) => {
  const skipped = optOuts(env)
  if (!skipped.includes("browser")) prepareChromium(machine, env, log)
  if (!skipped.includes("pg")) preparePostgres(machine, env, log)
  if (!skipped.includes("hosts")) prepareHosts(machine, env, log)
  if (!skipped.includes("registry")) prepareRegistry(machine, env, log)
  return skipped
}
