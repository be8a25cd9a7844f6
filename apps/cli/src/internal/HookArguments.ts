import { resolve } from "node:path"
import { DEFAULT_SKILL_ROOTS_TEXT } from "@armory/host/hooks"

/** The hosts `armory hook` answers. */
export const HOOK_HOSTS = ["claude-code", "opencode", "codex"] as const
export type HookHost = (typeof HOOK_HOSTS)[number]

/**
 * The flags of `armory hook`, once: the hook process parses them by hand (it must not load the CLI
 * framework on every prompt) and `armory hook --help` describes them through the framework.
 */
export const HOOK_FLAGS = {
  dir: {
    flag: "dir",
    repeatable: true,
    description: `a skills directory or SKILL.md file (repeatable; earlier wins). Default: ${DEFAULT_SKILL_ROOTS_TEXT}`
  },
  goalsRoot: { flag: "goals-root", repeatable: false, description: "the goals directory whose snapshot is injected (default: the project's .armory/goals)" },
  sessionId: { flag: "session-id", repeatable: false, description: "the goal session whose snapshot is injected (default: the default session, the one `armory mcp` uses)" }
} as const

export interface HookArguments {
  readonly host: HookHost
  readonly dirs: ReadonlyArray<string>
  readonly goalsRoot: string | undefined
  readonly sessionId: string | undefined
}

/** `claude-code --dir a --dir=b --goals-root g` → the host and the flags, or the reason they do not parse. */
export const parseHookArguments = (args: ReadonlyArray<string>): HookArguments | { readonly error: string } => {
  const [host, ...rest] = args
  if (host === undefined || !(HOOK_HOSTS as ReadonlyArray<string>).includes(host)) {
    return { error: `name the host: armory hook ${HOOK_HOSTS.join("|")}${host === undefined ? "" : ` (not ${JSON.stringify(host)})`}` }
  }
  const values: Record<keyof typeof HOOK_FLAGS, Array<string>> = { dir: [], goalsRoot: [], sessionId: [] }
  const byFlag = new Map(Object.entries(HOOK_FLAGS).map(([key, spec]) => [`--${spec.flag}`, key as keyof typeof HOOK_FLAGS]))
  for (let index = 0; index < rest.length; index++) {
    const arg = rest[index] ?? ""
    const [name = "", inline] = arg.startsWith("--") && arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined]
    const key = byFlag.get(name)
    if (key === undefined) return { error: `unknown argument ${JSON.stringify(arg)}` }
    const value = inline ?? rest[++index]
    if (value === undefined || value === "") return { error: `${name} needs a value` }
    if (!HOOK_FLAGS[key].repeatable && values[key].length > 0) return { error: `${name} is given twice` }
    values[key].push(value)
  }
  const [goalsRoot] = values.goalsRoot
  return { host: host as HookHost, dirs: values.dir.map((dir) => resolve(dir)), goalsRoot: goalsRoot === undefined ? undefined : resolve(goalsRoot), sessionId: values.sessionId[0] }
}
