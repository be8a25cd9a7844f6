/**
 * The error tags that mean "the host stopped this execution". Only the host reports them, from what
 * it observed; a guest-thrown value carrying one of them is reported as a plain `Error`.
 */
export const HOST_STOP_TAGS: ReadonlySet<string> = new Set(["Timeout", "MemoryLimitExceeded", "SandboxCrashed", "InternalToolError", "Cancelled"])
