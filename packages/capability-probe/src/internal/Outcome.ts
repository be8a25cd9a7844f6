import type { CleanupReport, RunOutcome } from "../RunCommand.js"

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null
const isOutput = (value: unknown): value is string | Uint8Array => typeof value === "string" || value instanceof Uint8Array
const isNullableString = (value: unknown): value is string | null => value === null || typeof value === "string"

const readCleanup = (value: unknown): CleanupReport | string => {
  if (!isRecord(value)) return "cleanup must be an object"
  if (value["verified"] === true) {
    const scope = value["scope"]
    return scope === "process-tree" || scope === "process-group" || scope === "direct-child"
      ? { verified: true, scope }
      : "cleanup.scope must be process-tree, process-group or direct-child"
  }
  if (value["verified"] === false) {
    const reason = value["reason"]
    return typeof reason === "string" ? { verified: false, reason } : "cleanup.reason must be a string"
  }
  return "cleanup.verified must be a boolean"
}

/** A runner's answer checked field by field: the outcome, or what is wrong with it. */
export const readOutcome = (value: unknown): RunOutcome | string => {
  if (value === null || value === undefined) return `runCommand returned ${String(value)}`
  if (!isRecord(value)) return "runCommand returned something other than an outcome object"
  const { stdout, stderr, exitCode, signal, timedOut, overflow, spawnError } = value
  if (!isOutput(stdout) || !isOutput(stderr)) return "runCommand's outcome needs stdout and stderr as strings or bytes"
  const code = exitCode === null ? null : typeof exitCode === "number" && Number.isInteger(exitCode) ? exitCode : undefined
  if (code === undefined) return "runCommand's outcome needs exitCode as an integer or null"
  if (!isNullableString(signal)) return "runCommand's outcome needs signal as a string or null"
  if (typeof timedOut !== "boolean") return "runCommand's outcome needs timedOut as a boolean"
  if (overflow !== null && overflow !== "stdout" && overflow !== "stderr") {
    return "runCommand's outcome needs overflow as stdout, stderr or null"
  }
  if (!isNullableString(spawnError)) return "runCommand's outcome needs spawnError as a string or null"
  const cleanup = readCleanup(value["cleanup"])
  if (typeof cleanup === "string") return `runCommand's outcome is malformed: ${cleanup}`
  return { stdout, stderr, exitCode: code, signal, timedOut, overflow, spawnError, cleanup }
}

/** A thrown value named by its error code or class, never by its message (which may quote anything). */
export const describeThrown = (error: unknown): string => {
  if (isRecord(error)) {
    const { code, name } = error
    if (typeof code === "string" && /^[A-Z0-9_]{1,40}$/.test(code)) return code
    if (typeof name === "string" && /^\w{1,40}$/.test(name)) return name
  }
  return "a non-error value"
}
