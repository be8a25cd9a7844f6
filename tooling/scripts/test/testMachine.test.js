import { describe, expect, it } from "vitest"
import { UnknownOptOut } from "../../config/components.js"
import { MachineNotReady, prepareTestMachine } from "../test-machine.mjs"

/**
 * A machine whose processes and files are scripted: `executables` exist, `answers` maps a command
 * line to what it exits with (and may change the machine), everything run is recorded.
 */
const fakeMachine = ({ uid = 0, executables = ["/usr/bin/chromium"], commands = ["apt-get", "pg_isready", "pg_ctlcluster"], answers = {}, versions = ["15"], manifests = {} } = {}) => {
  const present = new Set(executables)
  const ran = []
  const machine = {
    uid: () => uid,
    isExecutable: (path) => present.has(path),
    onPath: (command) => commands.includes(command),
    run: (command, args) => {
      const line = [command, ...args].join(" ")
      ran.push(line)
      const answer = answers[line] ?? (command === "pg_isready" ? 0 : line.endsWith("--version") ? { status: 0, stdout: "Chromium 156.0\n" } : 0)
      const outcome = typeof answer === "function" ? answer({ install: (path) => present.add(path) }) : answer
      return typeof outcome === "number" ? { status: outcome, stdout: "", stderr: "" } : { stdout: "", stderr: "", ...outcome }
    },
    postgresVersions: () => versions,
    sleep: () => {},
    mkdir: (path) => ran.push(`mkdir ${path}`),
    manifestVersion: (path) => manifests[path]
  }
  return { machine, ran }
}

// The hosts and the registry have tests of their own below; elsewhere they are left out unless a test names its opt-outs.
const prepare = (machine, env = {}) => {
  const logged = []
  const skipped = prepareTestMachine({ env: { ARMORY_TEST_SKIP: "hosts,registry", ...env }, machine, log: (line) => logged.push(line) })
  return { skipped, logged }
}

const refusal = (machine, env = {}) => {
  try {
    prepare(machine, env)
  } catch (error) {
    return error
  }
  throw new Error("expected the machine to be refused")
}

describe("prepareTestMachine: Chromium", () => {
  it("uses a Chromium that is there and runs, installing nothing", () => {
    const { machine, ran } = fakeMachine()
    const { logged } = prepare(machine)
    expect(ran).toEqual(["/usr/bin/chromium --version", "pg_isready -q -h 127.0.0.1 -p 5432"])
    expect(logged).toEqual(["Chromium: Chromium 156.0 at /usr/bin/chromium"])
  })

  it("installs Debian's chromium as root with apt-get, says so, then checks that it runs", () => {
    const { machine, ran } = fakeMachine({
      executables: [],
      answers: { "apt-get install -y -qq --no-install-recommends chromium": ({ install }) => (install("/usr/bin/chromium"), 0) }
    })
    const { logged } = prepare(machine)
    expect(ran.slice(0, 3)).toEqual(["apt-get update -qq", "apt-get install -y -qq --no-install-recommends chromium", "/usr/bin/chromium --version"])
    expect(logged[0]).toMatch(/^Chromium is missing at \/usr\/bin\/chromium; installing Debian's chromium package/)
  })

  it("stops a user who is not root with the command to run, before anything runs", () => {
    const { machine, ran } = fakeMachine({ uid: 1000, executables: [] })
    const error = refusal(machine)
    expect(error).toBeInstanceOf(MachineNotReady)
    expect(error.message).toBe(
      "Chromium is missing (no executable at /usr/bin/chromium) and cannot be installed here (not root): run `sudo apt-get install -y --no-install-recommends chromium`, " +
        "or point ARMORY_CHROMIUM at a Chromium binary, or opt out with ARMORY_TEST_SKIP=browser"
    )
    expect(ran).toEqual([])
  })

  it("stops root without apt-get the same way", () => {
    const { machine } = fakeMachine({ executables: [], commands: ["pg_isready"] })
    expect(refusal(machine).message).toMatch(/cannot be installed here \(no apt-get\)/)
  })

  it("does not install over an ARMORY_CHROMIUM that points at nothing", () => {
    const { machine, ran } = fakeMachine({ executables: ["/usr/bin/chromium"] })
    const error = refusal(machine, { ARMORY_CHROMIUM: "/opt/chrome/missing" })
    expect(error.message).toMatch(/^Chromium: ARMORY_CHROMIUM=\/opt\/chrome\/missing is not an executable file/)
    expect(ran).toEqual([])
  })

  it("launches the ARMORY_CHROMIUM binary when it is there", () => {
    const { machine, ran } = fakeMachine({ executables: ["/opt/chrome/chrome"] })
    prepare(machine, { ARMORY_CHROMIUM: "/opt/chrome/chrome" })
    expect(ran[0]).toBe("/opt/chrome/chrome --version")
  })

  it("names the apt-get step that failed and its last line", () => {
    const { machine } = fakeMachine({
      executables: [],
      answers: { "apt-get install -y -qq --no-install-recommends chromium": { status: 100, stderr: "E: Unable to locate package chromium\n" } }
    })
    expect(refusal(machine).message).toMatch(/`apt-get install -y -qq --no-install-recommends chromium` failed: E: Unable to locate package chromium;/)
  })

  it("refuses a Chromium that is there but does not start", () => {
    const { machine } = fakeMachine({ answers: { "/usr/bin/chromium --version": { status: 127, stderr: "error while loading shared libraries: libnss3.so\n" } } })
    expect(refusal(machine).message).toMatch(/^Chromium at \/usr\/bin\/chromium does not start: error while loading shared libraries: libnss3\.so;/)
  })
})

describe("prepareTestMachine: PostgreSQL", () => {
  it("starts the newest local cluster when nothing accepts connections, then waits for it", () => {
    let started = false
    const { machine, ran } = fakeMachine({
      versions: ["13", "15"],
      answers: {
        "pg_isready -q -h 127.0.0.1 -p 5432": () => (started ? 0 : 2),
        "pg_ctlcluster --skip-systemctl-redirect 15 main start": () => ((started = true), 0)
      }
    })
    const { logged } = prepare(machine)
    expect(ran.slice(1)).toEqual([
      "pg_isready -q -h 127.0.0.1 -p 5432",
      "pg_ctlcluster --skip-systemctl-redirect 15 main start",
      "pg_isready -q -h 127.0.0.1 -p 5432"
    ])
    expect(logged.at(-1)).toMatch(/starting the local cluster \(pg_ctlcluster --skip-systemctl-redirect 15 main start\)/)
  })

  it("stops with the reason when the cluster cannot be started", () => {
    const { machine } = fakeMachine({
      answers: {
        "pg_isready -q -h 127.0.0.1 -p 5432": 2,
        "pg_ctlcluster --skip-systemctl-redirect 15 main start": { status: 1, stderr: "Error: You must run this program as the cluster owner (postgres) or root\n" }
      }
    })
    expect(refusal(machine).message).toMatch(
      /^PostgreSQL is not accepting connections on 127\.0\.0\.1:5432 and `pg_ctlcluster --skip-systemctl-redirect 15 main start` failed: Error: You must run this program as the cluster owner \(postgres\) or root; .*ARMORY_TEST_SKIP=pg$/
    )
  })

  it("never tries to start a server that is not local", () => {
    const { machine, ran } = fakeMachine({ answers: { "pg_isready -q -h db.example -p 6543": 2 } })
    const error = refusal(machine, { ARMORY_GOALS_TEST_DATABASE_URL: "postgres://ci@db.example:6543/test" })
    expect(error.message).toMatch(/^PostgreSQL is not accepting connections on db\.example:6543: /)
    expect(ran.some((line) => line.startsWith("pg_ctlcluster"))).toBe(false)
  })

  it("stops when there is no local cluster to start", () => {
    const { machine } = fakeMachine({ versions: [], answers: { "pg_isready -q -h 127.0.0.1 -p 5432": 2 } })
    expect(refusal(machine).message).toMatch(/there is no local cluster to start/)
  })

  it("gives up after 30 checks of a cluster that never answers", () => {
    const { machine, ran } = fakeMachine({ answers: { "pg_isready -q -h 127.0.0.1 -p 5432": 2 } })
    expect(refusal(machine).message).toMatch(/did not accept connections within 30 s/)
    expect(ran.filter((line) => line.startsWith("pg_isready"))).toHaveLength(31)
  })
})

describe("prepareTestMachine: opt-outs", () => {
  it("leaves an opted-out component alone and reports it", () => {
    const { machine, ran } = fakeMachine({ executables: [], uid: 1000 })
    expect(prepare(machine, { ARMORY_TEST_SKIP: "browser, pg, hosts, registry" }).skipped).toEqual(["browser", "pg", "hosts", "registry"])
    expect(ran).toEqual([])
  })

  it("refuses a name that is not a component", () => {
    const { machine } = fakeMachine()
    const error = refusal(machine, { ARMORY_TEST_SKIP: "browsers" })
    expect(error).toBeInstanceOf(UnknownOptOut)
    expect(error.message).toBe('ARMORY_TEST_SKIP names "browsers", which is not a component; the components are browser, pg, hosts, registry')
  })
})

describe("prepareTestMachine: the agent hosts", () => {
  const env = { ARMORY_TEST_SKIP: "browser,pg,registry", ARMORY_TEST_HOSTS_DIR: "/hosts" }
  const claude = "/hosts/@anthropic-ai+claude-code@2.1.332/node_modules/.bin/claude"
  const opencode = "/hosts/opencode-ai@1.18.33/node_modules/.bin/opencode"
  const codex = "/hosts/@openai+codex@0.171.0/node_modules/.bin/codex"
  const versionAnswers = {
    [`${claude} --version`]: { status: 0, stdout: "2.1.332 (Claude Code)\n" },
    [`${opencode} --version`]: { status: 0, stdout: "1.18.33\n" },
    [`${codex} --version`]: { status: 0, stdout: "codex-cli 0.171.0\n" }
  }
  const installClaude = "npm install --no-audit --no-fund --loglevel=error --prefix /hosts/@anthropic-ai+claude-code@2.1.332 @anthropic-ai/claude-code@2.1.332"

  it("uses pinned hosts that are installed and answer their version, installing nothing", () => {
    const { machine, ran } = fakeMachine({ executables: [claude, opencode, codex], answers: versionAnswers })
    const { logged } = prepare(machine, env)
    expect(ran).toEqual([`${claude} --version`, `${opencode} --version`, `${codex} --version`])
    expect(logged).toEqual([`claude-code: 2.1.332 (Claude Code) at ${claude}`, `opencode: 1.18.33 at ${opencode}`, `codex: codex-cli 0.171.0 at ${codex}`])
  })

  it("installs a missing host with npm into its own folder of the cache, and says so", () => {
    const { machine, ran } = fakeMachine({ executables: [opencode, codex], answers: { ...versionAnswers, [installClaude]: ({ install: add }) => (add(claude), 0) } })
    const { logged } = prepare(machine, env)
    expect(ran).toEqual(["mkdir /hosts/@anthropic-ai+claude-code@2.1.332", installClaude, `${claude} --version`, `${opencode} --version`, `${codex} --version`])
    expect(logged[0]).toMatch(/^@anthropic-ai\/claude-code@2\.1\.332 is missing at .*; installing it for the suites that need it/)
  })

  it("refuses, naming the host and the command, when npm fails or the binary answers another version", () => {
    const failing = fakeMachine({ executables: [opencode, codex], answers: { ...versionAnswers, [installClaude]: { status: 1, stderr: "npm error 404\n" } } })
    const error = refusal(failing.machine, env)
    expect(error).toBeInstanceOf(MachineNotReady)
    expect(error.message).toMatch(/^claude-code: `npm install --prefix \/hosts\/.* @anthropic-ai\/claude-code@2\.1\.332` failed: npm error 404; .*ARMORY_TEST_SKIP=hosts/)
    const other = fakeMachine({ executables: [claude, opencode, codex], answers: { ...versionAnswers, [`${codex} --version`]: { status: 0, stdout: "codex-cli 0.100.0\n" } } })
    expect(refusal(other.machine, env).message).toMatch(/^codex at .* does not answer version 0\.171\.0/)
  })
})

describe("prepareTestMachine: the npm registry of the release rehearsal", () => {
  const env = { ARMORY_TEST_SKIP: "browser,pg,hosts", ARMORY_TEST_HOSTS_DIR: "/hosts" }
  const bin = "/hosts/verdaccio@6.10.4/node_modules/.bin/verdaccio"
  const manifest = "/hosts/verdaccio@6.10.4/node_modules/verdaccio/package.json"
  const install = "npm install --no-audit --no-fund --loglevel=error --prefix /hosts/verdaccio@6.10.4 verdaccio@6.10.4"

  it("uses the pinned Verdaccio when it is installed, checked by its manifest, running nothing", () => {
    const { machine, ran } = fakeMachine({ executables: [bin], manifests: { [manifest]: "6.10.4" } })
    const { logged } = prepare(machine, env)
    expect(ran).toEqual([])
    expect(logged).toEqual([`registry: verdaccio 6.10.4 at ${bin}`])
  })

  it("installs it with npm into its own folder of the cache when it is missing", () => {
    const { machine, ran } = fakeMachine({ executables: [], manifests: { [manifest]: "6.10.4" }, answers: { [install]: ({ install: add }) => (add(bin), 0) } })
    const { logged } = prepare(machine, env)
    expect(ran).toEqual(["mkdir /hosts/verdaccio@6.10.4", install])
    expect(logged[0]).toMatch(/^verdaccio@6\.10\.4 is missing at .*; installing it/)
  })

  it("refuses, naming the fix, when npm fails or another version is installed", () => {
    expect(refusal(fakeMachine({ executables: [], answers: { [install]: { status: 1, stderr: "npm error 404\n" } } }).machine, env).message).toMatch(
      /^registry: `npm install --prefix \/hosts\/verdaccio@6\.10\.4 verdaccio@6\.10\.4` failed: npm error 404; .*ARMORY_TEST_SKIP=registry/
    )
    expect(refusal(fakeMachine({ executables: [bin], manifests: { [manifest]: "5.0.0" } }).machine, env).message).toMatch(
      /^registry: .* names version 5\.0\.0, not 6\.10\.4; remove \/hosts\/verdaccio@6\.10\.4 to reinstall it/
    )
  })
})
