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

/**
 * The command line is wrong: it does not parse, or it parses into something the command refuses
 * (a port out of range, flags that do not go together, a `--dir` that does not exist). Exit code 2;
 * the runner prints the reasons and the `--help` hint on stderr, and nothing on stdout.
 */
export class UsageError extends Data.TaggedError("UsageError")<{ readonly reasons: ReadonlyArray<string> }> {
  override readonly [Runtime.errorExitCode] = 2
  override readonly [Runtime.errorReported] = false
}

/** A command's own usage refusal, raised in its handler: a {@link UsageError} with one reason. */
export const invalidUsage = (reason: string): UsageError => new UsageError({ reasons: [reason] })
