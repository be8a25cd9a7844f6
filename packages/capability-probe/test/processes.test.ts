import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs"
import { spawnSync } from "node:child_process"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { describe, expect, it } from "vitest"
import {
  BLOCKED_BROWSER_DRIVER_CLEANUP_FAILED,
  BLOCKED_BROWSER_DRIVER_IDENTITY_UNVERIFIED,
  BLOCKED_BROWSER_DRIVER_UNAVAILABLE,
  probeBrowserDriver,
  probeBrowserDriverSync
} from "../src/index.js"
import { superviseRun } from "../src/ProcessGroup.js"
import { fakeExecutable, isAlive, killIfAlive, MANUAL_SETUP, pathWith, scratch } from "./fixtures.js"

const BANNER = 'echo "agent-browser 0.34.0"'

/** A fake driver in a fresh directory; returns the directory. */
const driver = (body: string): string => {
  const directory = scratch()
  fakeExecutable(directory, body)
  return directory
}

/** Waits for a pid file a fake driver writes, then reads it. */
const readPid = async (file: string): Promise<number> => {
  for (let attempt = 0; attempt < 200 && !existsSync(file); attempt++) await new Promise((resolve) => setTimeout(resolve, 10))
  return Number(readFileSync(file, "utf8").trim())
}

/** Probes a driver that leaves a `setsid` escapee behind; reports whether the escapee survived. */
const probeWithSetsidEscapee = async (probe: (path: string) => Promise<unknown>, busyProcesses = 0) => {
  const pidFile = join(scratch(), "pid")
  // Short-lived processes started before the escape hand out many pids during the run.
  const busy = busyProcesses > 0 ? `i=0; while [ $i -lt ${busyProcesses} ]; do /bin/true; i=$((i + 1)); done\n` : ""
  const directory = driver(
    `${busy}setsid sh -c 'echo $$ > "$0"; exec sleep 30' '${pidFile}' >/dev/null 2>&1 &\nwhile [ ! -s '${pidFile}' ]; do sleep 0.01; done\n${BANNER}`
  )
  const result = await probe(pathWith(directory))
  const pid = await readPid(pidFile)
  const alive = isAlive(pid)
  killIfAlive(pid)
  return { result, directory, alive }
}

describe("resolution through the real resolver", () => {
  it("finds the driver and verifies it, asynchronously and synchronously", async () => {
    const directory = driver(BANNER)
    const expected = {
      status: "available",
      command: join(directory, "agent-browser"),
      version: "agent-browser 0.34.0",
      blocker: null,
      detail: "identity verified; its process group is gone and no process escaped it"
    }
    expect(await probeBrowserDriver({ path: pathWith(directory) })).toEqual(expected)
    expect(probeBrowserDriverSync({ path: pathWith(directory) })).toEqual(expected)
  })

  it("leaves no timer behind to keep the host's event loop alive once it has answered", () => {
    const directory = driver(BANNER)
    // A fresh process, so that no other test's timers are counted.
    const script = [
      `import { probeBrowserDriver } from ${JSON.stringify(pathToFileURL(join(import.meta.dirname, "..", "dist", "index.js")).href)}`,
      `const result = await probeBrowserDriver({ path: ${JSON.stringify(pathWith(directory))} })`,
      `const timers = process.getActiveResourcesInfo().filter((resource) => resource === "Timeout").length`,
      "console.log(JSON.stringify({ status: result.status, timers }))"
    ].join("\n")
    const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" })
    expect(JSON.parse(child.stdout)).toEqual({ status: "available", timers: 0 })
  })

  it("is unavailable when the driver is not on PATH or PATH is empty", async () => {
    const notFound = { status: "unavailable", command: null, version: null, blocker: BLOCKED_BROWSER_DRIVER_UNAVAILABLE }
    expect(await probeBrowserDriver({ path: pathWith(scratch()) })).toEqual({ ...notFound, detail: `agent-browser is not on PATH${MANUAL_SETUP}` })
    expect(probeBrowserDriverSync({ path: "" })).toMatchObject(notFound)
  })

  it("never crashes on a file without the exec bit, a directory or a broken symlink", async () => {
    const plain = scratch()
    writeFileSync(join(plain, "agent-browser"), `#!/bin/sh\n${BANNER}\n`)
    chmodSync(join(plain, "agent-browser"), 0o644)
    const directory = scratch()
    mkdirSync(join(directory, "agent-browser"))
    const broken = scratch()
    symlinkSync(join(broken, "missing-target"), join(broken, "agent-browser"))
    for (const candidate of [plain, directory, broken]) {
      const result = await probeBrowserDriver({ path: pathWith(candidate) })
      expect(result.status).not.toBe("available")
      expect(result.blocker).not.toBeNull()
      expect(result.version).toBeNull()
    }
    const started = await Promise.all(
      [join(plain, "agent-browser"), join(directory, "agent-browser"), join(broken, "agent-browser")].map((file) =>
        superviseRun({ stage: "version", file, args: ["--version"], env: { PATH: "/usr/bin" }, cwd: scratch(), timeoutMs: 10_000, maxOutputBytes: 65_536 })
      )
    )
    expect(started.map((outcome) => outcome.spawnError)).toEqual(["EACCES", "EACCES", "ENOENT"])
  })

  it("never resolves through ':' or '.' entries, whatever is in the caller's directory", async () => {
    const caller = scratch()
    const pwned = join(caller, "pwned")
    fakeExecutable(caller, `touch '${pwned}'\n${BANNER}`)
    const legitimate = driver(BANNER)
    expect(await probeBrowserDriver({ path: ":.:", cwd: caller })).toMatchObject({ status: "unavailable", command: null })
    expect(await probeBrowserDriver({ path: `.::${legitimate}:/usr/bin:/bin`, cwd: caller })).toMatchObject({
      status: "available",
      command: join(legitimate, "agent-browser")
    })
    const previous = process.cwd()
    process.chdir(caller)
    try {
      expect(probeBrowserDriverSync({ path: ".:/usr/bin:/bin" })).toMatchObject({ status: "unavailable" })
    } finally {
      process.chdir(previous)
    }
    expect(existsSync(pwned)).toBe(false)
  })

  it("runs paths with spaces, ';', '$(…)' and quotes exactly, and refuses a path with a newline", async () => {
    const root = scratch()
    const marker = join(root, "substituted")
    for (const name of ["with space", "semi;colon", `$(touch ${marker})`, `it's "quoted"`]) {
      const directory = join(root, name)
      fakeExecutable(directory, BANNER)
      expect(await probeBrowserDriver({ path: pathWith(directory) })).toMatchObject({ status: "available", command: join(directory, "agent-browser") })
    }
    expect(existsSync(marker)).toBe(false)
    const newline = join(root, "new\nline")
    fakeExecutable(newline, BANNER)
    expect(await probeBrowserDriver({ path: pathWith(newline) })).toMatchObject({
      status: "unverified-identity",
      command: null,
      blocker: BLOCKED_BROWSER_DRIVER_IDENTITY_UNVERIFIED
    })
  })
})

describe("the version run as a real process", () => {
  it("passes PATH and nothing else, and never runs in the caller's directory", async () => {
    const saved = { ...process.env }
    process.env["AGENT_BROWSER_PROFILE"] = "/home/me/.profile"
    process.env["NODE_OPTIONS"] = "--max-old-space-size=1"
    try {
      const output = join(scratch(), "environ")
      const directory = driver(`tr '\\0' '\\n' < /proc/$$/environ > '${output}'\n${BANNER}`)
      expect((await probeBrowserDriver({ path: pathWith(directory) })).status).toBe("available")
      expect(readFileSync(output, "utf8").trim().split("\n")).toEqual([`PATH=${pathWith(directory)}`])
    } finally {
      process.env = saved
    }
  })

  it("ignores a hostile agent-browser.json in the caller's working directory", async () => {
    const caller = scratch()
    writeFileSync(join(caller, "agent-browser.json"), JSON.stringify({ executablePath: "/tmp/evil", args: ["--no-sandbox"] }))
    const directory = driver(
      'if [ -e agent-browser.json ] || [ -n "$(ls -A)" ]; then echo "agent-browser 6.6.6 configured"; else echo "agent-browser 0.34.0"; fi'
    )
    expect(await probeBrowserDriver({ path: pathWith(directory), cwd: caller })).toMatchObject({ status: "available", version: "agent-browser 0.34.0" })
  })

  it("stops at 64 KiB + 1 on stdout and on stderr, and accepts exactly 64 KiB", async () => {
    const stdout = driver("head -c 65537 /dev/zero | tr '\\0' a")
    const stderr = driver(`head -c 65537 /dev/zero >&2\n${BANNER}`)
    const exactly = driver(`yes 'a deprecation warning' | head -c 65536 >&2\n${BANNER}`)
    expect(await probeBrowserDriver({ path: pathWith(stdout) })).toMatchObject({
      status: "unverified-identity",
      detail: `the version run wrote more than 64 KiB to stdout and was killed${MANUAL_SETUP}`
    })
    expect((await probeBrowserDriver({ path: pathWith(stderr) })).detail).toBe(`the version run wrote more than 64 KiB to stderr and was killed${MANUAL_SETUP}`)
    expect((await probeBrowserDriver({ path: pathWith(exactly) })).status).toBe("available")
  })

  it("kills a driver that hangs (sleep 30) at the 10 s limit instead of waiting for it", async () => {
    const pidFile = join(scratch(), "pid")
    const directory = driver(`${BANNER}\necho $$ > '${pidFile}'\nexec sleep 30`)
    const result = await probeBrowserDriver({ path: pathWith(directory) })
    // The driver would sleep on for another 20 s: it is gone only because the probe killed it.
    expect(isAlive(await readPid(pidFile))).toBe(false)
    expect(result).toMatchObject({
      status: "unverified-identity",
      version: null,
      blocker: BLOCKED_BROWSER_DRIVER_IDENTITY_UNVERIFIED,
      detail: `the version run did not finish within 10 s and was killed${MANUAL_SETUP}`
    })
  })

  it("does not block the event loop while the driver runs", async () => {
    const directory = driver(`sleep 0.5\n${BANNER}`)
    let ticks = 0
    const ticker = setInterval(() => ticks++, 20)
    const result = await probeBrowserDriver({ path: pathWith(directory) })
    clearInterval(ticker)
    expect(result.status).toBe("available")
    expect(ticks).toBeGreaterThan(5)
  })

  it.each([
    ["holding stdout", ""],
    ["with its output redirected", " >/dev/null 2>&1"]
  ])("kills a background child %s that outlives a successful exit", async (_, redirect) => {
    const pidFile = join(scratch(), "pid")
    const directory = driver(`sleep 30${redirect} &\necho $! > '${pidFile}'\n${BANNER}`)
    const result = await probeBrowserDriver({ path: pathWith(directory) })
    const pid = await readPid(pidFile)
    expect(result.status).toBe("available")
    expect(isAlive(pid)).toBe(false)
  })

  it("reports a setsid escapee as the cleanup-failure tuple and kills it", async () => {
    for (const probe of [(path: string) => probeBrowserDriver({ path }), async (path: string) => probeBrowserDriverSync({ path })]) {
      const { result, directory, alive } = await probeWithSetsidEscapee(probe)
      expect(result).toMatchObject({
        status: "unverified-identity",
        command: join(directory, "agent-browser"),
        version: null,
        blocker: BLOCKED_BROWSER_DRIVER_CLEANUP_FAILED
      })
      expect((result as { detail: string }).detail).toMatch(/escaped the process group/)
      expect(alive).toBe(false)
    }
  })

  it("finds the escapee also when many processes started during the run", async () => {
    const { result, alive } = await probeWithSetsidEscapee((path) => probeBrowserDriver({ path }), 40)
    expect(result).toMatchObject({ status: "unverified-identity", version: null, blocker: BLOCKED_BROWSER_DRIVER_CLEANUP_FAILED })
    expect((result as { detail: string }).detail).toMatch(/escaped the process group/)
    expect(alive).toBe(false)
  })

  it("reports a descendant that moved to its own process group and directory", async () => {
    // setpgrp without a new session needs a language that exposes it; perl-base is in every Debian.
    if (!existsSync("/usr/bin/perl")) throw new Error("this test needs /usr/bin/perl to call setpgrp: apt-get install -y perl-base")
    const pidFile = join(scratch(), "pid")
    const directory = driver(
      `/usr/bin/perl -e 'setpgrp(0, 0); chdir "/"; open(my $out, ">", $ARGV[0]); print $out "$$\\n"; close $out; sleep 30' '${pidFile}' >/dev/null 2>&1 &\n` +
        `while [ ! -s '${pidFile}' ]; do sleep 0.01; done\n${BANNER}`
    )
    const result = await probeBrowserDriver({ path: pathWith(directory) })
    const pid = await readPid(pidFile)
    const alive = isAlive(pid)
    killIfAlive(pid)
    expect(result).toMatchObject({ status: "unverified-identity", blocker: BLOCKED_BROWSER_DRIVER_CLEANUP_FAILED })
    expect(result.detail).toMatch(/escaped the process group/)
    expect(alive).toBe(false)
  })

  it("reports an escapee that left the working directory but holds the output pipe", async () => {
    const pidFile = join(scratch(), "pid")
    const directory = driver(
      `setsid sh -c 'cd / && echo $$ > "$0" && exec sleep 30' '${pidFile}' &\nwhile [ ! -s '${pidFile}' ]; do sleep 0.01; done\n${BANNER}`
    )
    const result = await probeBrowserDriver({ path: pathWith(directory) })
    killIfAlive(await readPid(pidFile))
    expect(result).toMatchObject({
      status: "unverified-identity",
      command: join(directory, "agent-browser"),
      blocker: BLOCKED_BROWSER_DRIVER_CLEANUP_FAILED,
      detail: "the version run of agent-browser left processes behind: a process outside the process group still held the output pipes"
    })
  })
})
