import { Effect, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { runHook } from "./HookMain.js"
import { HOOK_FLAGS, HOOK_HOSTS } from "./internal/HookArguments.js"

/**
 * `armory hook` as the framework sees it, for `--help`: a hook call itself is answered by
 * `HookMain` before the framework loads (see `bin.ts`), with the same flags.
 */
export const hookCommand = Command.make(
  "hook",
  {
    host: Argument.Literals("host", HOOK_HOSTS).pipe(Argument.withDescription("the agent host whose hook input is on stdin")),
    dirs: Flag.String(HOOK_FLAGS.dir.flag).pipe(Flag.atLeast(0), Flag.withDescription(HOOK_FLAGS.dir.description)),
    goalsRoot: Flag.String(HOOK_FLAGS.goalsRoot.flag).pipe(Flag.optional, Flag.withDescription(HOOK_FLAGS.goalsRoot.description)),
    sessionId: Flag.String(HOOK_FLAGS.sessionId.flag).pipe(Flag.optional, Flag.withDescription(HOOK_FLAGS.sessionId.description))
  },
  ({ host, dirs, goalsRoot, sessionId }) =>
    Effect.promise(() =>
      runHook([
        host,
        ...dirs.flatMap((dir) => [`--${HOOK_FLAGS.dir.flag}`, dir]),
        ...Option.match(goalsRoot, { onNone: () => [], onSome: (root) => [`--${HOOK_FLAGS.goalsRoot.flag}`, root] }),
        ...Option.match(sessionId, { onNone: () => [], onSome: (id) => [`--${HOOK_FLAGS.sessionId.flag}`, id] })
      ])
    )
).pipe(
  Command.withShortDescription("Answer an agent host's hook: the skills a prompt or an edit arms, and the goal snapshot"),
  Command.withDescription(
    "Reads the host's hook input (JSON) on stdin and answers in the host's hook output format.\n" +
      "claude-code: UserPromptSubmit adds the skills the prompt arms (name, why, the SKILL.md, and its body the first time\n" +
      "the session gets it) and the goal snapshot when\n" +
      "the session has not seen it yet; PostToolUse of Edit, Write, MultiEdit or NotebookEdit adds the skills the edited\n" +
      "file's project-relative path arms; SessionStart adds the goal snapshot.\n" +
      "opencode: what the plugin `armory init opencode` writes sends (chat.message, tool.execute.after of edit, write,\n" +
      "multiedit, patch), answered as {\"text\": \"…\"}.\n" +
      "codex: the same events as claude-code, in the same format; PostToolUse of apply_patch adds the skills the files its\n" +
      "patch names arm.\n" +
      "A goal snapshot that cannot be read is said in one line; the armed skills are still added.\n" +
      "Nothing to add prints nothing. The added text is at most 10,000 characters.\n" +
      "The skills and the snapshot are cached under the project's .armory/cache and checked against the files on every call.\n" +
      "Exit codes: always 0, even for invalid usage or a failure (the reason goes to stderr): a host must never be blocked by it."
  )
)
