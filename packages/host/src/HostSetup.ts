/**
 * The project configuration that plugs Armory into an agent host, as merges into the host's own
 * files: what is there is kept, what Armory needs is added once, and a second run changes nothing.
 */

/** The hosts Armory can set itself up in. */
export const SETUP_HOSTS = ["claude-code"] as const
export type SetupHost = (typeof SETUP_HOSTS)[number]

/** How the host starts the `armory` command (default: from the registry, no install needed). */
export const DEFAULT_ARMORY_COMMAND = ["npx", "-y", "@armory/cli"] as const

/** One file a setup touches: its path under the project, and its new text given the current one. */
export interface SetupFile {
  readonly path: string
  /** The file's text with Armory merged in, or why the current text cannot be merged into (it is then left alone). */
  readonly merge: (current: string | undefined) => { readonly text: string } | { readonly error: string }
}

type Json = { [key: string]: unknown }

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value)

/** Parses a JSON object file, or says what is wrong with it. An absent file is an empty object. */
const parseObject = (path: string, current: string | undefined): Json | { readonly error: string } => {
  if (current === undefined || current.trim() === "") return {}
  let value: unknown
  try {
    value = JSON.parse(current)
  } catch (error) {
    return { error: `${path} is not valid JSON (${error instanceof Error ? error.message : String(error)}); fix it or move it away, it was left as it is` }
  }
  return isObject(value) ? value : { error: `${path} is not a JSON object; it was left as it is` }
}

const isError = (value: Json | { readonly error: string }): value is { readonly error: string } =>
  typeof value["error"] === "string" && Object.keys(value).length === 1

const formatted = (value: Json): string => `${JSON.stringify(value, null, 2)}\n`

/** A shell command line from words, each quoted only when it needs to be. */
const commandLine = (words: ReadonlyArray<string>): string => words.map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`)).join(" ")

/** The Claude Code events Armory answers, and the tools a `PostToolUse` entry matches. */
const CLAUDE_CODE_HOOKS: ReadonlyArray<{ readonly event: string; readonly matcher?: string }> = [
  { event: "SessionStart" },
  { event: "UserPromptSubmit" },
  { event: "PostToolUse", matcher: "Edit|Write|MultiEdit|NotebookEdit" }
]

const claudeCodeSettings = (hookCommand: string): SetupFile => ({
  path: ".claude/settings.json",
  merge: (current) => {
    const settings = parseObject(".claude/settings.json", current)
    if (isError(settings)) return settings
    const hooks = settings["hooks"] ?? {}
    if (!isObject(hooks)) return { error: ".claude/settings.json: `hooks` is not an object; it was left as it is" }
    const merged: Json = { ...hooks }
    let added = false
    for (const { event, matcher } of CLAUDE_CODE_HOOKS) {
      const groups = merged[event] ?? []
      if (!Array.isArray(groups)) return { error: `.claude/settings.json: \`hooks.${event}\` is not a list; it was left as it is` }
      const present = groups.some(
        (group) => isObject(group) && Array.isArray(group["hooks"]) && group["hooks"].some((hook) => isObject(hook) && hook["command"] === hookCommand)
      )
      if (present) continue
      merged[event] = [...groups, { ...(matcher === undefined ? {} : { matcher }), hooks: [{ type: "command", command: hookCommand }] }]
      added = true
    }
    // Nothing to add leaves the file byte for byte as it was, however it is formatted.
    return { text: added || current === undefined ? formatted({ ...settings, hooks: merged }) : current }
  }
})

/** `.mcp.json`'s `mcpServers.armory`; a server of that name the user already has is kept as it is. */
const mcpJson = (command: ReadonlyArray<string>): SetupFile => ({
  path: ".mcp.json",
  merge: (current) => {
    const config = parseObject(".mcp.json", current)
    if (isError(config)) return config
    const servers = config["mcpServers"] ?? {}
    if (!isObject(servers)) return { error: ".mcp.json: `mcpServers` is not an object; it was left as it is" }
    if (servers["armory"] !== undefined) return { text: current ?? formatted(config) }
    const [program = "armory", ...args] = command
    return { text: formatted({ ...config, mcpServers: { ...servers, armory: { command: program, args: [...args, "mcp"] } } }) }
  }
})

/**
 * The files `armory init <host>` merges into, for a host that starts Armory with `command` (its words,
 * e.g. `["npx", "-y", "@armory/cli"]` or `["armory"]`).
 */
export const hostSetup = (host: SetupHost, command: ReadonlyArray<string> = DEFAULT_ARMORY_COMMAND): ReadonlyArray<SetupFile> => {
  switch (host) {
    case "claude-code":
      return [claudeCodeSettings(commandLine([...command, "hook", "claude-code"])), mcpJson(command)]
  }
}
