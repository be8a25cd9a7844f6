import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { RunOutcome, RunRequest } from "../src/RunCommand.js"

/** A fresh directory for one test's fake executables. */
export const scratch = (): string => mkdtempSync(join(tmpdir(), "capability-probe-test-"))

/** Writes an executable `#!/bin/sh` script named `name` into `directory` and returns its path. */
export const fakeExecutable = (directory: string, body: string, name = "agent-browser"): string => {
  mkdirSync(directory, { recursive: true })
  const path = join(directory, name)
  writeFileSync(path, `#!/bin/sh\n${body}\n`)
  chmodSync(path, 0o755)
  return path
}

/** A fake `agent-browser` in its own directory that prints exactly `bytes` on stdout. */
export const driverPrinting = (bytes: string | Uint8Array): string => {
  const directory = scratch()
  const banner = join(directory, "banner.bin")
  writeFileSync(banner, bytes)
  fakeExecutable(join(directory, "bin"), `/bin/cat '${banner}'`)
  return join(directory, "bin")
}

/** PATH with the fake driver's directory first and the system tools the scripts use after it. */
export const pathWith = (directory: string): string => `${directory}:/usr/bin:/bin`

/** Whether `pid` is still a live (non-zombie) process. */
export const isAlive = (pid: number): boolean => {
  if (!existsSync(`/proc/${pid}/stat`)) return false
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0] !== "Z"
}

export const killIfAlive = (pid: number): void => {
  try {
    process.kill(pid, "SIGKILL")
  } catch {
    // Already gone, which is what the test wants.
  }
}

/** A finished run that exited 0 with `stdout`, its cleanup verified. */
export const exited = (stdout: string | Uint8Array, overrides: Partial<RunOutcome> = {}): RunOutcome => ({
  stdout,
  stderr: "",
  exitCode: 0,
  signal: null,
  timedOut: false,
  overflow: null,
  spawnError: null,
  cleanup: { verified: true, scope: "process-tree" },
  ...overrides
})

export const FAKE_DRIVER = "/opt/fake/bin/agent-browser"

/** How every result that finds no usable agent-browser ends: the two commands a person runs, never the probe. */
export const MANUAL_SETUP = "; to install it by hand run `npm install -g agent-browser`, then `agent-browser install`; do not run these automatically, ask the user"

/**
 * A runCommand seam: the resolver answers `resolved`, the version run answers `version`; every
 * request is recorded.
 */
export const fakeRunner = (
  version: RunOutcome | null | (() => RunOutcome | null),
  resolved: RunOutcome | null | (() => RunOutcome | null) = exited(`${FAKE_DRIVER}\n`)
) => {
  const requests: Array<RunRequest> = []
  const runCommand = (request: RunRequest): RunOutcome | null => {
    requests.push(request)
    const answer = request.stage === "resolve" ? resolved : version
    return typeof answer === "function" ? answer() : answer
  }
  return { runCommand, requests }
}

const alnum = (length: number, seed = 7): string => {
  const alphabet = "aB3dE5gH7jK9mN1pQ2sT4vW6xY8z0Lc"
  return Array.from({ length }, (_, index) => alphabet[(index * seed + 3) % alphabet.length]).join("")
}
const upper = (length: number): string => Array.from({ length }, (_, index) => "QWERTYUIOPASDFGHJKLZXCVBNM"[index % 26]).join("")

/** Glues a credential shape together at run time, so none is ever committed as one literal. */
const joined = (...parts: ReadonlyArray<string>): string => parts.join("")

/** One sample of every secret shape the banner screen knows, with the kind it is reported as. */
export const SECRET_SAMPLES: ReadonlyArray<readonly [kind: string, sample: string]> = [
  ["private key", joined("-----BEGIN ", "RSA PRIVATE KEY-----")],
  ["private key", joined("-----BEGIN ", "OPENSSH PRIVATE KEY-----")],
  ["GitHub token", joined("gh", "p_", alnum(36))],
  ["GitHub token", joined("gh", "s_", alnum(36))],
  ["GitHub token", joined("github", "_pat_", alnum(82))],
  ["GitLab token", joined("gl", "pat-", alnum(20))],
  ["npm token", joined("np", "m_", alnum(36))],
  ["Slack token", joined("xo", "xb-", "1234567890-", alnum(24))],
  ["Slack token", joined("https://hooks.slack", ".com/services/T000/B000/", alnum(24))],
  ["AWS access key", joined("AK", "IA", upper(16))],
  ["Google API key", joined("AI", "za", alnum(35))],
  ["Hugging Face token", joined("h", "f_", "abcdefghijklmnopqrstuvwxyzABCDEFGH")],
  ["SendGrid key", joined("S", "G.", alnum(22), ".", alnum(43))],
  ["JSON Web Token", joined("ey", "J", alnum(20), ".ey", "J", alnum(20), ".", alnum(20))],
  ["bearer or basic credential", joined("Authorization: Bear", "er ", alnum(30))],
  ["bearer or basic credential", joined("Bas", "ic ", alnum(16))],
  ["password assignment", joined("pass", "word=", "hunter2")],
  ["URL with credentials", joined("https://", "user:", "pw", "@example.com/x")],
  ["Stripe key", joined("sk", "_live_", alnum(24))],
  ["OpenAI or Anthropic key", joined("sk", "-ant-", alnum(40))]
]
