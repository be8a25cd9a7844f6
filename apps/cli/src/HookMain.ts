import { claudeCodeHook, codexHook, openCodeHook } from "@armory/host/hooks"
import { type HookHost, parseHookArguments } from "./internal/HookArguments.js"

/** Each host's hook: its input on stdin, answered in its own output format. */
const HOOK_ANSWERS = { "claude-code": claudeCodeHook, opencode: openCodeHook, codex: codexHook } as const satisfies Record<HookHost, unknown>

/** The most of stdin a hook reads: a host's payload is far smaller; past this it is not read further. */
export const MAX_HOOK_INPUT_BYTES = 16 * 1024 * 1024

const readBoundedStdin = async (): Promise<{ readonly text: string } | { readonly error: string }> => {
  const chunks: Array<Buffer> = []
  let bytes = 0
  for await (const chunk of process.stdin) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk))
    bytes += buffer.length
    if (bytes > MAX_HOOK_INPUT_BYTES) return { error: `the hook input is over the ${MAX_HOOK_INPUT_BYTES}-byte limit` }
    chunks.push(buffer)
  }
  return { text: Buffer.concat(chunks).toString("utf8") }
}

/**
 * `armory hook <host>`, without the CLI framework: the host runs it before every prompt. It always
 * exits 0, whatever went wrong (the reason goes to stderr): for Claude Code, exit 2 would block the
 * user's prompt, and a broken hook must never do that.
 */
export const runHook = async (args: ReadonlyArray<string>): Promise<void> => {
  const parsed = parseHookArguments(args)
  const input = "error" in parsed ? undefined : await readBoundedStdin()
  const answer =
    "error" in parsed
      ? { stderr: `armory hook: ${parsed.error}` }
      : input !== undefined && "error" in input
        ? { stderr: `armory hook ${parsed.host}: ${input.error}` }
        : await HOOK_ANSWERS[parsed.host](input?.text ?? "", {
            ...(parsed.dirs.length === 0 ? {} : { skillSources: parsed.dirs }),
            goalsRoot: parsed.goalsRoot,
            sessionId: parsed.sessionId
          })
  if (answer.stdout !== undefined) process.stdout.write(`${answer.stdout}\n`)
  if (answer.stderr !== undefined) process.stderr.write(`${answer.stderr}\n`)
  process.exitCode = 0
}
