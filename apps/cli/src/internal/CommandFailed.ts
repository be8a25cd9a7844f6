import { Data, Runtime } from "effect"
import { CliError } from "effect/cli"

/**
 * A command ran to the end and its outcome is a failure: exit code 1. The command's own output was
 * printed already; the CLI runner adds the message as a closing `ERROR` line.
 */
export class CommandFailed extends Data.TaggedError("CommandFailed")<{ readonly message: string }> {
  override readonly [Runtime.errorExitCode] = 1
  override readonly [Runtime.errorReported] = false
  override get [CliError.userMessage](): string {
    return this.message
  }
}

/** The command line could not be parsed; the runner has printed help and the reasons: exit code 2. */
export class UsageError extends Data.TaggedError("UsageError")<{ readonly reasons: ReadonlyArray<string> }> {
  override readonly [Runtime.errorExitCode] = 2
  override readonly [Runtime.errorReported] = false
}

/** Flags that parse but do not go together (such as `--store pg` without a database URL): exit code 2. */
export class InvalidUsage extends Data.TaggedError("InvalidUsage")<{ readonly message: string }> {
  override readonly [Runtime.errorExitCode] = 2
  override readonly [Runtime.errorReported] = false
  override get [CliError.userMessage](): string {
    return this.message
  }
}
