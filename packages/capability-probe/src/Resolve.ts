import { untrustedTextReason } from "./Banner.js"
import type { RunRequest } from "./RunCommand.js"

const POSIX_ABSOLUTE = /^\//
// A drive-letter path; `\dir` (drive-relative) and `C:dir` (relative to that drive's cwd) are not absolute.
const WINDOWS_ABSOLUTE = /^[A-Za-z]:\\/
// Characters cmd.exe gives meaning to; a path holding one is refused even though no shell is used.
const WINDOWS_SHELL_METACHARACTER = /[&|<>^%!"`;]/
const WINDOWS_DIRECTLY_EXECUTABLE = /\.(?:exe|com)$/i
const MAX_PATH_LENGTH = 4096

/** Limits every probe run uses. */
export const RUN_TIMEOUT_MS = 10_000
export const MAX_OUTPUT_BYTES = 64 * 1024

const isWindows = (platform: NodeJS.Platform): boolean => platform === "win32"

/**
 * The PATH entries that may be searched: absolute ones only, in order, without duplicates. Empty
 * and relative entries are dropped because they resolve against whatever the current directory is.
 */
export const searchableEntries = (path: string, platform: NodeJS.Platform): ReadonlyArray<string> => {
  const absolute = isWindows(platform) ? WINDOWS_ABSOLUTE : POSIX_ABSOLUTE
  const entries = path.split(isWindows(platform) ? ";" : ":").filter((entry) => absolute.test(entry))
  return [...new Set(entries)]
}

/** The environment both runs receive: the searchable PATH, plus what Windows cannot start without. */
export const minimalEnvironment = (
  entries: ReadonlyArray<string>,
  platform: NodeJS.Platform,
  hostEnv: NodeJS.ProcessEnv
): Readonly<Record<string, string>> => {
  if (!isWindows(platform)) return { PATH: entries.join(":") }
  const systemRoot = hostEnv["SystemRoot"] ?? "C:\\Windows"
  return {
    PATH: entries.join(";"),
    SystemRoot: systemRoot,
    ComSpec: hostEnv["ComSpec"] ?? `${systemRoot}\\System32\\cmd.exe`,
    PATHEXT: hostEnv["PATHEXT"] ?? ".COM;.EXE;.BAT;.CMD"
  }
}

/**
 * The host-native resolver for `command`. POSIX: `/bin/sh -c 'command -v -- "$1"'` with the name
 * as a positional argument, so it is never parsed as shell text. Windows: `where.exe $PATH:name`,
 * which searches only the directories of PATH (plain `where.exe name` searches the current
 * directory first).
 */
export const resolverRequest = (
  command: string,
  env: Readonly<Record<string, string>>,
  platform: NodeJS.Platform,
  cwd: string
): RunRequest => {
  const base = { stage: "resolve", env, cwd, timeoutMs: RUN_TIMEOUT_MS, maxOutputBytes: MAX_OUTPUT_BYTES } as const
  return isWindows(platform)
    ? { ...base, file: `${env["SystemRoot"] ?? "C:\\Windows"}\\System32\\where.exe`, args: [`$PATH:${command}`] }
    : { ...base, file: "/bin/sh", args: ["-c", 'command -v -- "$1"', "sh", command] }
}

/** How the resolver's answer was read. */
export type Resolution =
  | { readonly kind: "not-found" }
  | { readonly kind: "refused"; readonly command: string | null; readonly reason: string }
  | { readonly kind: "resolved"; readonly command: string }

const outputLines = (stdout: string, platform: NodeJS.Platform): ReadonlyArray<string> => {
  const text = isWindows(platform) ? stdout.replace(/\r\n/g, "\n") : stdout
  const lines = text.split("\n")
  if (lines.at(-1) === "") lines.pop()
  return lines
}

/**
 * Reads a successful resolver's stdout: exactly one absolute path whose text is safe to echo,
 * and on Windows a directly executable `.exe`/`.com` free of shell metacharacters.
 */
export const readResolution = (stdout: string, platform: NodeJS.Platform): Resolution => {
  const lines = outputLines(stdout, platform)
  if (lines.length === 0) return { kind: "not-found" }
  if (lines.length > 1) {
    return {
      kind: "refused",
      command: null,
      reason: `the resolver printed ${lines.length} lines where exactly one absolute path is required`
    }
  }
  const [line = ""] = lines
  const absolute = isWindows(platform) ? WINDOWS_ABSOLUTE : POSIX_ABSOLUTE
  if (!absolute.test(line)) {
    return { kind: "refused", command: null, reason: "the resolver's answer is not an absolute path (a shell builtin, alias or relative path)" }
  }
  const unsafe = untrustedTextReason(line, MAX_PATH_LENGTH)
  if (unsafe !== null) return { kind: "refused", command: null, reason: `the resolved path is not echoed because ${unsafe}` }
  if (isWindows(platform)) {
    if (!WINDOWS_DIRECTLY_EXECUTABLE.test(line)) {
      return {
        kind: "refused",
        command: line,
        reason: "on Windows only a directly executable .exe or .com is run; this would need a shell"
      }
    }
    if (WINDOWS_SHELL_METACHARACTER.test(line)) {
      return { kind: "refused", command: line, reason: "the resolved path contains a Windows shell metacharacter" }
    }
  }
  return { kind: "resolved", command: line }
}
