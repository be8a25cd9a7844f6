import type { RunCommand } from "./RunCommand.js"

/** The probe's inputs from its surroundings; each defaults to the real host and exists for tests. */
export interface ProbeOptions {
  /**
   * The PATH to search, in the platform's own format (`:`-separated on POSIX, `;` on Windows).
   * Defaults to `process.env.PATH`. Only absolute entries are searched: empty and relative entries
   * (which would mean the current directory) are dropped. It is also the only variable the resolver
   * and the driver receive.
   */
  readonly path?: string
  /**
   * Runs the resolver and the version command instead of spawning real processes. Defaults to the
   * built-in runner (detached POSIX process group, 10 s timeout, 64 KiB per stream, cleanup
   * verified). `probeDriverSync` needs one that returns synchronously.
   */
  readonly runCommand?: RunCommand
  /**
   * The platform whose rules apply: `win32` uses `where.exe` and accepts only `.exe`/`.com` paths
   * free of shell metacharacters; anything else uses POSIX `command -v`. Defaults to
   * `process.platform`.
   */
  readonly platform?: NodeJS.Platform
  /**
   * The caller's working directory, an absolute path; defaults to `process.cwd()`. The resolver runs
   * there, which is safe because relative PATH entries are dropped; the driver never runs there (it
   * gets a fresh empty temporary directory), so files such as `./agent-browser.json` in it cannot
   * influence the answer.
   */
  readonly cwd?: string
}
