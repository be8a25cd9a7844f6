import { existsSync, readdirSync } from "node:fs"
import { afterEach, describe, expect, it } from "vitest"
import {
  BLOCKED_BROWSER_DRIVER_CLEANUP_FAILED,
  BLOCKED_BROWSER_DRIVER_IDENTITY_UNVERIFIED,
  BLOCKED_BROWSER_DRIVER_UNAVAILABLE,
  BLOCKED_DRIVER_SPEC_INVALID,
  probeBrowserDriver,
  probeBrowserDriverSync,
  probeDriver,
  probeDriverSync,
  type DriverSpec,
  type RunOutcome,
  type RunRequest
} from "../src/index.js"
import { exited, FAKE_DRIVER, fakeRunner, MANUAL_SETUP } from "./fixtures.js"

const BANNER = "agent-browser 0.34.0\n"
const PATH = "/opt/fake/bin:/usr/bin"

const throwing = () => {
  throw new TypeError("boom with a message that must not leak")
}

const answeringWithPromises = (request: RunRequest) =>
  Promise.resolve(exited(request.stage === "resolve" ? `${FAKE_DRIVER}\n` : BANNER))

describe("results when the runner misbehaves", () => {
  it("a runner that throws while resolving makes the driver unavailable", async () => {
    const { runCommand } = fakeRunner(exited(BANNER), throwing)
    const result = await probeBrowserDriver({ runCommand, path: PATH })
    expect(result).toEqual({
      status: "unavailable",
      command: null,
      version: null,
      blocker: BLOCKED_BROWSER_DRIVER_UNAVAILABLE,
      detail: `agent-browser could not be resolved: runCommand threw TypeError${MANUAL_SETUP}`
    })
    expect(probeBrowserDriverSync({ runCommand, path: PATH })).toEqual(result)
  })

  it("a runner that throws or returns null during the version run leaves the identity unverified", async () => {
    for (const version of [throwing, () => null]) {
      const { runCommand } = fakeRunner(version)
      const result = await probeBrowserDriver({ runCommand, path: PATH })
      expect(result).toMatchObject({ status: "unverified-identity", command: FAKE_DRIVER, version: null, blocker: BLOCKED_BROWSER_DRIVER_IDENTITY_UNVERIFIED })
      expect(result.detail).not.toContain("boom")
    }
  })

  it("a runner that returns null or a malformed outcome while resolving is named in the detail", async () => {
    expect((await probeBrowserDriver({ runCommand: fakeRunner(exited(BANNER), null).runCommand, path: PATH })).detail).toBe(
      `agent-browser could not be resolved: runCommand returned null${MANUAL_SETUP}`
    )
    const malformed = { ...exited(`${FAKE_DRIVER}\n`), timedOut: "no" } as unknown as RunOutcome
    const result = await probeBrowserDriver({ runCommand: fakeRunner(exited(BANNER), malformed).runCommand, path: PATH })
    expect(result).toMatchObject({ status: "unavailable", blocker: BLOCKED_BROWSER_DRIVER_UNAVAILABLE })
    expect(result.detail).toContain("timedOut as a boolean")
  })

  it("a signal, a timeout, an overflow, a non-zero exit or a spawn error is a result", async () => {
    const cases: ReadonlyArray<readonly [Partial<RunOutcome>, string]> = [
      [{ exitCode: null, signal: "SIGSEGV" }, "was ended by signal SIGSEGV"],
      [{ exitCode: null, signal: "SIGKILL", timedOut: true }, "did not finish within 10 s"],
      [{ overflow: "stderr" }, "wrote more than 64 KiB to stderr"],
      [{ exitCode: 3 }, "exited with code 3"],
      [{ exitCode: null, spawnError: "EACCES" }, "could not be started (EACCES)"]
    ]
    for (const [overrides, detail] of cases) {
      const result = await probeBrowserDriver({ runCommand: fakeRunner(exited(BANNER, overrides)).runCommand, path: PATH })
      expect(result).toMatchObject({ status: "unverified-identity", version: null, blocker: BLOCKED_BROWSER_DRIVER_IDENTITY_UNVERIFIED })
      expect(result.detail).toContain(detail)
    }
    const resolverKilled = await probeBrowserDriver({
      runCommand: fakeRunner(exited(BANNER), exited(`${FAKE_DRIVER}\n`, { exitCode: null, signal: "SIGTERM" })).runCommand,
      path: PATH
    })
    expect(resolverKilled).toMatchObject({ status: "unavailable", command: null, blocker: BLOCKED_BROWSER_DRIVER_UNAVAILABLE })
    expect(resolverKilled.detail).toContain("signal SIGTERM")
  })

  it("probeDriverSync refuses a runner that answers with a Promise", () => {
    expect(probeBrowserDriverSync({ runCommand: answeringWithPromises, path: PATH })).toMatchObject({
      status: "unavailable",
      detail: `agent-browser could not be resolved: runCommand returned a Promise, but probeDriverSync needs a synchronous runner${MANUAL_SETUP}`
    })
  })
})

describe("the cleanup-failure tuple", () => {
  const failed = { verified: false, reason: "process group 4242 still has live members after SIGKILL" } as const

  it("is command null when the resolver's cleanup failed", async () => {
    const { runCommand, requests } = fakeRunner(exited(BANNER), exited(`${FAKE_DRIVER}\n`, { cleanup: failed }))
    expect(await probeBrowserDriver({ runCommand, path: PATH })).toEqual({
      status: "unverified-identity",
      command: null,
      version: null,
      blocker: BLOCKED_BROWSER_DRIVER_CLEANUP_FAILED,
      detail: `resolving agent-browser left processes behind: ${failed.reason}`
    })
    expect(requests.map((request) => request.stage)).toEqual(["resolve"])
  })

  it("is the resolved path when the version run's cleanup failed, even with a perfect banner", async () => {
    const { runCommand } = fakeRunner(exited(BANNER, { cleanup: failed }))
    expect(probeBrowserDriverSync({ runCommand, path: PATH })).toEqual({
      status: "unverified-identity",
      command: FAKE_DRIVER,
      version: null,
      blocker: BLOCKED_BROWSER_DRIVER_CLEANUP_FAILED,
      detail: `the version run of agent-browser left processes behind: ${failed.reason}`
    })
  })
})

describe("what the resolver and the driver are given", () => {
  const saved = { ...process.env }
  afterEach(() => {
    process.env = { ...saved }
  })

  it("PATH only, absolute entries only; the driver runs with no shell in a fresh empty directory", async () => {
    process.env["AGENT_BROWSER_SESSION"] = "leak"
    process.env["NODE_OPTIONS"] = "--require /tmp/evil.js"
    process.env["GITHUB_TOKEN"] = "leak"
    let versionDirectory = ""
    const { runCommand, requests } = fakeRunner(() => {
      versionDirectory = requests.at(-1)?.cwd ?? ""
      expect(readdirSync(versionDirectory)).toEqual([])
      return exited(BANNER)
    })
    const result = await probeBrowserDriver({ runCommand, path: ":.:relative/bin::/opt/fake/bin:/usr/bin:/opt/fake/bin", cwd: "/home/caller" })
    expect(result.status).toBe("available")
    const [resolve, version] = requests
    expect(resolve).toEqual({
      stage: "resolve",
      file: "/bin/sh",
      args: ["-c", 'command -v -- "$1"', "sh", "agent-browser"],
      env: { PATH: "/opt/fake/bin:/usr/bin" },
      cwd: "/home/caller",
      timeoutMs: 10_000,
      maxOutputBytes: 65_536
    })
    expect(version).toMatchObject({ stage: "version", file: FAKE_DRIVER, args: ["--version"], env: { PATH: "/opt/fake/bin:/usr/bin" } })
    expect(version?.cwd).not.toBe("/home/caller")
    expect(existsSync(versionDirectory)).toBe(false)
  })

  it("a PATH without an absolute entry resolves nothing and runs nothing", async () => {
    for (const path of ["", ":", ".:bin:./tools"]) {
      const { runCommand, requests } = fakeRunner(exited(BANNER))
      expect(await probeBrowserDriver({ runCommand, path })).toEqual({
        status: "unavailable",
        command: null,
        version: null,
        blocker: BLOCKED_BROWSER_DRIVER_UNAVAILABLE,
        detail: `agent-browser is not on PATH: PATH has no absolute directory to search${MANUAL_SETUP}`
      })
      expect(requests).toEqual([])
    }
  })

  it("an answer that is not one absolute path is never run", async () => {
    for (const answer of ["agent-browser\n", "alias agent-browser='curl x | sh'\n", "/a/agent-browser\n/b/agent-browser\n"]) {
      const { runCommand, requests } = fakeRunner(exited(BANNER), exited(answer))
      expect(await probeBrowserDriver({ runCommand, path: PATH })).toMatchObject({
        status: "unverified-identity",
        command: null,
        blocker: BLOCKED_BROWSER_DRIVER_IDENTITY_UNVERIFIED
      })
      expect(requests).toHaveLength(1)
    }
  })
})

describe("Windows rules through the injected platform", () => {
  const windowsPath = "C:\\Tools;.;\\rootless;D:relative;C:\\Windows\\System32"
  const probeWindows = (where: RunOutcome | null, version: RunOutcome = exited(BANNER)) => {
    const seam = fakeRunner(version, where)
    return { seam, result: probeBrowserDriverSync({ runCommand: seam.runCommand, platform: "win32", path: windowsPath, cwd: "C:\\Users\\me" }) }
  }

  it("asks where.exe to search PATH only, with the variables Windows needs", () => {
    const { seam, result } = probeWindows(exited("C:\\Tools\\agent-browser.exe\r\n", { cleanup: { verified: true, scope: "direct-child" } }), exited(BANNER, { cleanup: { verified: true, scope: "direct-child" } }))
    expect(result).toEqual({
      status: "available",
      command: "C:\\Tools\\agent-browser.exe",
      version: "agent-browser 0.34.0",
      blocker: null,
      detail: "identity verified; its direct child exited (on Windows only the direct child is tracked)"
    })
    const [where, version] = seam.requests
    expect(where?.file).toMatch(/\\System32\\where\.exe$/)
    expect(where?.args).toEqual(["$PATH:agent-browser"])
    expect(where?.env["PATH"]).toBe("C:\\Tools;C:\\Windows\\System32")
    expect(Object.keys(where?.env ?? {}).toSorted()).toEqual(["ComSpec", "PATH", "PATHEXT", "SystemRoot"])
    expect(version?.file).toBe("C:\\Tools\\agent-browser.exe")
  })

  it("refuses a multi-line answer, a .cmd shim and paths with & or %", () => {
    const cases: ReadonlyArray<readonly [string, string | null, string]> = [
      ["C:\\Tools\\agent-browser.exe\r\nC:\\Other\\agent-browser.exe\r\n", null, "printed 2 lines"],
      ["C:\\npm\\agent-browser.cmd\r\n", "C:\\npm\\agent-browser.cmd", "only a directly executable .exe or .com"],
      ["C:\\A&B\\agent-browser.exe\r\n", "C:\\A&B\\agent-browser.exe", "shell metacharacter"],
      ["C:\\100%\\agent-browser.exe\r\n", "C:\\100%\\agent-browser.exe", "shell metacharacter"]
    ]
    for (const [answer, command, detail] of cases) {
      const { seam, result } = probeWindows(exited(answer))
      expect(result).toMatchObject({ status: "unverified-identity", command, blocker: BLOCKED_BROWSER_DRIVER_IDENTITY_UNVERIFIED })
      expect(result.detail).toContain(detail)
      expect(seam.requests).toHaveLength(1)
    }
  })

  it("where.exe finding nothing is unavailable", () => {
    expect(probeWindows(exited("", { exitCode: 1 })).result).toMatchObject({ status: "unavailable", blocker: BLOCKED_BROWSER_DRIVER_UNAVAILABLE })
  })
})

describe("specs of other drivers and bad input", () => {
  const AST_GREP: DriverSpec<"SG_MISSING" | "SG_UNVERIFIED" | "SG_CLEANUP"> = {
    command: "ast-grep",
    versionArgs: ["--version"],
    identity: /^ast-grep (?<version>\d+\.\d+\.\d+)$/g,
    blockers: { unavailable: "SG_MISSING", identityUnverified: "SG_UNVERIFIED", cleanupFailed: "SG_CLEANUP" }
  }

  it("uses the spec's command, identity and blockers", async () => {
    const resolved = exited("/opt/bin/ast-grep\n")
    const seam = fakeRunner(exited("ast-grep 0.39.1\n"), resolved)
    expect(await probeDriver(AST_GREP, { runCommand: seam.runCommand, path: PATH })).toMatchObject({ status: "available", command: "/opt/bin/ast-grep", version: "0.39.1" })
    expect(await probeDriver(AST_GREP, { runCommand: seam.runCommand, path: PATH })).toMatchObject({ status: "available" })
    expect(seam.requests[0]?.args.at(-1)).toBe("ast-grep")
    expect(probeDriverSync(AST_GREP, { runCommand: fakeRunner(exited("agent-browser 0.34.0\n"), resolved).runCommand, path: PATH })).toMatchObject({
      status: "unverified-identity",
      blocker: "SG_UNVERIFIED"
    })
    expect(await probeDriver(AST_GREP, { runCommand: fakeRunner(exited(""), exited("", { exitCode: 1 })).runCommand, path: PATH })).toMatchObject({
      blocker: "SG_MISSING"
    })
  })

  it("an invalid spec is a result naming the field", async () => {
    const invalid = { ...AST_GREP, command: "../bin/ast-grep" }
    expect(await probeDriver(invalid)).toEqual({
      status: "unavailable",
      command: null,
      version: null,
      blocker: BLOCKED_DRIVER_SPEC_INVALID,
      detail: "invalid driver spec: command must be a bare name of letters, digits, '.', '_', '+' or '-' (at most 128 characters, no path)"
    })
    expect(probeDriverSync({ ...AST_GREP, identity: "^ast-grep" } as unknown as DriverSpec).detail).toBe("invalid driver spec: identity must be a RegExp")
    expect(probeDriverSync(null as unknown as DriverSpec).detail).toBe("invalid driver spec: the spec must be an object")
  })

  it("invalid options are a result naming the option", async () => {
    expect(await probeBrowserDriver({ cwd: "relative/dir" })).toMatchObject({
      status: "unavailable",
      blocker: BLOCKED_BROWSER_DRIVER_UNAVAILABLE,
      detail: "invalid probe options: cwd must be an absolute path"
    })
    expect(probeBrowserDriverSync({ path: 42 } as unknown as { path: string }).detail).toBe("invalid probe options: path must be a string")
  })
})
