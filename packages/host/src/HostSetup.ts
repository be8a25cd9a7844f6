import { parse as parseToml, stringify as stringifyToml } from "smol-toml"
import { CLAUDE_CODE_EDIT_TOOLS } from "./hooks/ClaudeCodeHook.js"
import { CODEX_EDIT_TOOLS } from "./hooks/CodexHook.js"
import { OPENCODE_PLUGIN_MARKER, openCodePluginModule } from "./internal/OpenCodePluginModule.js"

/**
 * The project configuration that plugs Armory into an agent host, as merges into the host's own
 * files: what is there is kept, what Armory needs is added once, and a second run changes nothing.
 */

/** The hosts Armory can set itself up in. */
export const SETUP_HOSTS = ["claude-code", "opencode", "codex"] as const
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
const parseObject = (path: string, current: string | undefined): { readonly value: Json } | { readonly error: string } => {
  if (current === undefined || current.trim() === "") return { value: {} }
  let value: unknown
  try {
    value = JSON.parse(current)
  } catch (error) {
    return { error: `${path} is not valid JSON (${error instanceof Error ? error.message : String(error)}); fix it or move it away, it was left as it is` }
  }
  return isObject(value) ? { value } : { error: `${path} is not a JSON object; it was left as it is` }
}

const formatted = (value: Json): string => `${JSON.stringify(value, null, 2)}\n`

/** A shell command line from words, each quoted only when it needs to be. */
const commandLine = (words: ReadonlyArray<string>): string => words.map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`)).join(" ")

/** A host's hook events Armory answers, and the tools a `PostToolUse` entry matches. */
type HookEvents = ReadonlyArray<{ readonly event: string; readonly matcher?: string }>

const CLAUDE_CODE_HOOKS: HookEvents = [
  { event: "SessionStart" },
  { event: "UserPromptSubmit" },
  { event: "PostToolUse", matcher: Object.keys(CLAUDE_CODE_EDIT_TOOLS).join("|") }
]

const CODEX_HOOKS: HookEvents = [{ event: "SessionStart" }, { event: "UserPromptSubmit" }, { event: "PostToolUse", matcher: Object.keys(CODEX_EDIT_TOOLS).join("|") }]

/** A JSON value with every object's keys in order: two values are the same setting exactly when these are equal. */
const canonical = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(canonical)
  if (!isObject(value)) return value
  return Object.fromEntries(Object.keys(value).toSorted().map((key) => [key, canonical(value[key])]))
}

/** Whether a merge changed anything: the same values, whatever the order of their keys. */
const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b))

/**
 * Armory's hook, whatever command starts it: a command hook whose command runs `hook <host>` (what
 * `armory init` writes, after the command it was given). `tail` is what follows the command: `hook
 * <host>` and any flags the user added, which a run keeps.
 */
const armoryHookTail = (command: unknown, host: string): string | undefined => {
  if (typeof command !== "string") return undefined
  return new RegExp(`(?:^|\\s)(hook\\s+${host}(?:\\s.*)?)$`).exec(command)?.[1]
}

/**
 * A `hooks` object (event → matcher groups → command hooks, the shape Claude Code and Codex share)
 * with Armory's hook for each event run by `command`: the first Armory hook of an event is changed
 * to it (the user's flags after `hook <host>` kept, and the matcher set when the group holds only
 * Armory's hooks), any other Armory hook of the event is removed (with its group, when it held
 * nothing else), and an event without one gets a group of its own. `where` names the object in the
 * reasons. Answers whether anything changed.
 */
const mergeHookGroups = (
  where: string,
  current: unknown,
  command: ReadonlyArray<string>,
  host: string,
  events: HookEvents
): { readonly hooks: Json; readonly changed: boolean } | { readonly error: string } => {
  const hooks = current ?? {}
  if (!isObject(hooks)) return { error: `${where}: \`hooks\` is not an object; it was left as it is` }
  const merged: Json = { ...hooks }
  const prefix = commandLine(command)
  for (const { event, matcher } of events) {
    const groups: unknown = merged[event] ?? []
    if (!Array.isArray(groups)) return { error: `${where}: \`hooks.${event}\` is not a list; it was left as it is` }
    let kept = false
    const next: Array<unknown> = []
    for (const group of groups) {
      if (!isObject(group) || !Array.isArray(group["hooks"])) {
        next.push(group)
        continue
      }
      const entries: Array<unknown> = group["hooks"]
      const ours = entries.filter((hook) => isObject(hook) && armoryHookTail(hook["command"], host) !== undefined)
      if (ours.length === 0) {
        next.push(group)
        continue
      }
      const rest = entries.flatMap((hook) => {
        if (!ours.includes(hook) || !isObject(hook)) return [hook]
        if (kept) return []
        kept = true
        return [{ ...hook, command: `${prefix} ${armoryHookTail(hook["command"], host) ?? `hook ${host}`}` }]
      })
      if (rest.length === 0) continue
      const onlyOurs = rest.every((hook) => isObject(hook) && armoryHookTail(hook["command"], host) !== undefined)
      next.push(onlyOurs && matcher !== undefined ? { ...group, matcher, hooks: rest } : { ...group, hooks: rest })
    }
    if (!kept) next.push({ ...(matcher === undefined ? {} : { matcher }), hooks: [{ type: "command", command: `${prefix} hook ${host}` }] })
    merged[event] = next
  }
  return { hooks: merged, changed: !sameJson(merged, hooks) }
}

/**
 * The permission rule that lets the model call Armory's MCP tools without asking each time: Claude
 * Code honours a project's `permissions.allow` once the user has trusted the workspace.
 */
export const CLAUDE_CODE_ARMORY_TOOLS = "mcp__armory"

const claudeCodeSettings = (command: ReadonlyArray<string>): SetupFile => ({
  path: ".claude/settings.json",
  merge: (current) => {
    const parsed = parseObject(".claude/settings.json", current)
    if ("error" in parsed) return parsed
    const settings = parsed.value
    const hooks = mergeHookGroups(".claude/settings.json", settings["hooks"], command, "claude-code", CLAUDE_CODE_HOOKS)
    if ("error" in hooks) return hooks
    const permissions = settings["permissions"] ?? {}
    if (!isObject(permissions)) return { error: ".claude/settings.json: `permissions` is not an object; it was left as it is" }
    const allow = permissions["allow"] ?? []
    if (!Array.isArray(allow)) return { error: ".claude/settings.json: `permissions.allow` is not a list; it was left as it is" }
    const allowed = allow.includes(CLAUDE_CODE_ARMORY_TOOLS)
    // Nothing to add leaves the file byte for byte as it was, however it is formatted.
    if (!hooks.changed && allowed && current !== undefined) return { text: current }
    return { text: formatted({ ...settings, permissions: { ...permissions, allow: allowed ? allow : [...allow, CLAUDE_CODE_ARMORY_TOOLS] }, hooks: hooks.hooks }) }
  }
})

/**
 * `.codex/hooks.json`, the project's hooks Codex runs once the user has trusted them (Codex asks in
 * its `/hooks` view; a hook whose entry changes must be trusted again).
 */
const codexHooks = (command: ReadonlyArray<string>): SetupFile => ({
  path: ".codex/hooks.json",
  merge: (current) => {
    const parsed = parseObject(".codex/hooks.json", current)
    if ("error" in parsed) return parsed
    const hooks = mergeHookGroups(".codex/hooks.json", parsed.value["hooks"], command, "codex", CODEX_HOOKS)
    if ("error" in hooks) return hooks
    if (!hooks.changed && current !== undefined) return { text: current }
    return { text: formatted({ ...parsed.value, hooks: hooks.hooks }) }
  }
})

/** The words after the first `mcp` of an entry's command line: the user's flags to `armory mcp`, which a run keeps. */
const flagsAfterMcp = (words: unknown): ReadonlyArray<string> => {
  if (!Array.isArray(words) || !words.every((word) => typeof word === "string")) return []
  const at = words.indexOf("mcp")
  return at < 0 ? [] : words.slice(at + 1)
}

/**
 * A JSON object file whose map under `key` holds Armory's server as `name`: `entry` makes it from
 * what is there (Armory's entry is the one of that name, whatever command it has), so a run with
 * another command moves it, what the user added to it stays, and a run that changes nothing leaves
 * the file byte for byte. A new file starts from `fresh`.
 */
const jsonEntry = (path: string, key: string, name: string, entry: (existing: unknown) => unknown, fresh: Json = {}): SetupFile => ({
  path,
  merge: (current) => {
    const parsed = parseObject(path, current)
    if ("error" in parsed) return parsed
    const config = parsed.value
    const entries = config[key] ?? {}
    if (!isObject(entries)) return { error: `${path}: \`${key}\` is not an object; it was left as it is` }
    const value = entry(entries[name])
    if (current !== undefined && sameJson(value, entries[name])) return { text: current }
    return { text: formatted({ ...(current === undefined ? fresh : {}), ...config, [key]: { ...entries, [name]: value } }) }
  }
})

/** `.mcp.json`'s `mcpServers.armory`. */
const mcpJson = (command: ReadonlyArray<string>): SetupFile => {
  const [program = "armory", ...args] = command
  return jsonEntry(".mcp.json", "mcpServers", "armory", (existing) => {
    const kept = isObject(existing) ? existing : {}
    return { ...kept, command: program, args: [...args, "mcp", ...flagsAfterMcp(kept["args"])] }
  })
}

/** The server entry OpenCode's `opencode.json` starts: `mcp.armory`, a local command. */
const openCodeConfig = (command: ReadonlyArray<string>): SetupFile =>
  jsonEntry(
    "opencode.json",
    "mcp",
    "armory",
    (existing) => {
      const kept = isObject(existing) ? existing : {}
      return { ...kept, type: "local", command: [...command, "mcp", ...flagsAfterMcp(kept["command"])], enabled: kept["enabled"] ?? true }
    },
    { $schema: "https://opencode.ai/config.json" }
  )

/** The one-line plugin earlier versions of `armory init opencode` wrote, which a run now replaces. */
const EARLIER_OPENCODE_PLUGIN_MODULE = 'export { ArmoryPlugin } from "@armory/host/opencode"\n'

/**
 * `.opencode/plugins/armory.js`, the plugin OpenCode loads from the project: Armory's own file is
 * written anew for the command (it imports nothing, so OpenCode installs nothing for it); a file of
 * the user's own there is left alone.
 */
const openCodePluginFile = (command: ReadonlyArray<string>): SetupFile => ({
  path: ".opencode/plugins/armory.js",
  merge: (current) =>
    current === undefined || current === EARLIER_OPENCODE_PLUGIN_MODULE || current.startsWith(OPENCODE_PLUGIN_MARKER)
      ? { text: openCodePluginModule(command) }
      : { error: ".opencode/plugins/armory.js is there with other content; it was left as it is" }
})

/**
 * What `[mcp_servers.armory]` sets besides the command, for Codex to start a session with Armory's
 * tools usable: `required` makes Codex wait for the server before the first model request (and
 * fail the session, saying so, when it cannot start); `startup_timeout_sec` gives a first `npx` run
 * time to install; `default_tools_approval_mode = "approve"` lets the model call Armory's tools
 * without asking (Codex's `exec` refuses every tool that would need asking); `env_vars` passes
 * `CODEX_HOME` on, where Armory reads the user's Codex skills.
 */
export const CODEX_SERVER_SETTINGS = {
  required: true,
  startup_timeout_sec: 60,
  default_tools_approval_mode: "approve",
  env_vars: ["CODEX_HOME"]
} as const

const ARMORY_SECTION = /^\s*\[\s*mcp_servers\s*\.\s*"?armory"?\s*\]\s*(?:#.*)?$/
const ARMORY_SUBTABLE = /^\s*\[\s*mcp_servers\s*\.\s*"?armory"?\s*\./

/** The lines of the `[mcp_servers.armory]` section and its subtables, `[start, end)`; none when the table is not written as a section of its own. */
const armorySection = (lines: ReadonlyArray<string>): { readonly start: number; readonly end: number } | undefined => {
  const start = lines.findIndex((line) => ARMORY_SECTION.test(line))
  if (start < 0) return undefined
  let end = start + 1
  while (end < lines.length && !(/^\s*\[/.test(lines[end] ?? "") && !ARMORY_SUBTABLE.test(lines[end] ?? ""))) end += 1
  // The blank lines before the next section stay between the sections.
  while (end > start + 1 && (lines[end - 1] ?? "").trim() === "") end -= 1
  return { start, end }
}

/**
 * `.codex/config.toml`'s `[mcp_servers.armory]`: appended as a section of its own, so the user's
 * file keeps its comments and layout; when the section is there, it is rewritten in place for the
 * command, keeping what the user added to it (flags after `mcp`, settings, `env`).
 */
const codexConfig = (command: ReadonlyArray<string>): SetupFile => ({
  path: ".codex/config.toml",
  merge: (current) => {
    let config: Record<string, unknown>
    try {
      config = parseToml(current ?? "")
    } catch (error) {
      return { error: `.codex/config.toml is not valid TOML (${error instanceof Error ? error.message.split("\n")[0] : String(error)}); it was left as it is` }
    }
    const servers = config["mcp_servers"] ?? {}
    if (!isObject(servers)) return { error: ".codex/config.toml: `mcp_servers` is not a table; it was left as it is" }
    const existing = servers["armory"]
    const { command: _command, args: given, ...kept } = isObject(existing) ? existing : {}
    const [program = "armory", ...args] = command
    const wanted = { command: program, args: [...args, "mcp", ...flagsAfterMcp(given)], ...CODEX_SERVER_SETTINGS, ...kept }
    if (current !== undefined && sameJson(wanted, existing)) return { text: current }
    const section = stringifyToml({ mcp_servers: { armory: wanted } }).trimEnd()
    if (existing === undefined) {
      const before = current === undefined || current.trim() === "" ? "" : `${current.trimEnd()}\n\n`
      return { text: `${before}${section}\n` }
    }
    const lines = (current ?? "").split("\n")
    const found = armorySection(lines)
    if (found === undefined) {
      return { error: ".codex/config.toml: `mcp_servers.armory` is not written as a `[mcp_servers.armory]` section; change its command by hand, it was left as it is" }
    }
    return { text: [...lines.slice(0, found.start), section, ...lines.slice(found.end)].join("\n") }
  }
})

/** A loaded skill as the AGENTS.md section lists it: what it is, where, and what arms it. */
export interface SetupSkill {
  readonly name: string
  readonly description: string
  readonly location: string
  readonly autoInject?:
    | { readonly keywords?: ReadonlyArray<string>; readonly url?: ReadonlyArray<string>; readonly paths?: ReadonlyArray<string>; readonly requested?: boolean }
    | undefined
}

/** The markers around the section Armory owns in AGENTS.md; everything outside them is the project's. */
export const AGENTS_SECTION_BEGIN = "<!-- armory:skills:begin -->"
export const AGENTS_SECTION_END = "<!-- armory:skills:end -->"

/** The most the AGENTS.md section takes, so a large catalog cannot crowd out the project's own instructions. */
export const MAX_AGENTS_SECTION_CHARS = 8_000
const MAX_DESCRIPTION_CHARS = 300
const MAX_TRIGGERS = 6

/**
 * Where Codex finds skills itself, under the project: it lists them in its own skills section, so
 * AGENTS.md does not repeat them (nor the user's and its own system skills, outside the project).
 */
const CODEX_PROJECT_SKILL_ROOT = ".agents/skills/"

/**
 * A skill's text on one line, with `<` and `>` written as entities (Markdown shows them as written):
 * no description can carry the section's markers or any other HTML comment into AGENTS.md.
 */
const oneLine = (text: string, max: number): string => {
  const flat = text
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu, " ")
    .trim()
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`
}

const quotedList = (patterns: ReadonlyArray<string> | undefined): string | undefined => {
  if (patterns === undefined || patterns.length === 0) return undefined
  const shown = patterns.slice(0, MAX_TRIGGERS).map((pattern) => `\`${oneLine(pattern, 80).replaceAll("`", "'")}\``)
  return `${shown.join(", ")}${patterns.length > MAX_TRIGGERS ? ` and ${patterns.length - MAX_TRIGGERS} more` : ""}`
}

/** What arms a skill, in words: the prompt's keywords, the page URL, the edited files. */
const armedBy = (skill: SetupSkill): string => {
  const parts = [
    [quotedList(skill.autoInject?.keywords), skill.autoInject?.requested === true ? "when the task asks for something with" : "when the task mentions"],
    [quotedList(skill.autoInject?.url), "on pages"],
    [quotedList(skill.autoInject?.paths), "after edits of"]
  ].flatMap(([list, words]) => (list === undefined ? [] : [`${words} ${list}`]))
  return parts.length === 0 ? "" : ` Use it ${parts.join("; ")}.`
}

/**
 * The catalog as the section Codex reads from AGENTS.md: the skills of the project that Codex does
 * not list itself, each with its description, what arms it and its SKILL.md, project-relative.
 * `relativeTo` answers a location under the project, or undefined for one outside it.
 */
export const agentsSection = (skills: ReadonlyArray<SetupSkill>, relativeTo: (location: string) => string | undefined): string => {
  const listed = skills.flatMap((skill) => {
    const path = relativeTo(skill.location)
    return path === undefined || path.startsWith(CODEX_PROJECT_SKILL_ROOT) ? [] : [{ skill, path }]
  })
  const heading = [
    AGENTS_SECTION_BEGIN,
    "## Armory",
    "",
    "Armory's MCP server `armory` serves this project's durable goal (`goal_status`, `goal_set`, `goal_evidence`, `goal_complete` and the other `goal_` tools), " +
      "code mode (`execute`) and its skills (`skills_list`, `skill_read`). Codex may hold MCP tools back: when they are not among your tools, find them with `tool_search` (query: armory).",
    "",
    "### Skills",
    "",
    "Besides the skills Codex lists itself, this project keeps these. Use a skill when the task clearly matches its description: read its SKILL.md first and follow it.",
    ""
  ]
  const lines: Array<string> = []
  let used = [...heading, AGENTS_SECTION_END].join("\n").length
  for (const [index, { skill, path }] of listed.entries()) {
    const description = oneLine(skill.description, MAX_DESCRIPTION_CHARS)
    const line = `- \`${oneLine(skill.name, 64)}\`: ${/[.!?…]$/.test(description) ? description : `${description}.`}${armedBy(skill)} (${oneLine(path, 400)})`
    if (used + line.length + 80 > MAX_AGENTS_SECTION_CHARS) {
      lines.push(`- … and ${listed.length - index} more skills (\`armory skills list\`)`)
      break
    }
    lines.push(line)
    used += line.length + 1
  }
  if (listed.length === 0) lines.push("- (none yet: add them under .armory/skills/<name>/SKILL.md and run `armory init codex` again)")
  return [...heading, ...lines, AGENTS_SECTION_END].join("\n")
}

/** AGENTS.md with Armory's section put in, or replaced where its markers are; the rest of the file is kept. */
const agentsFile = (section: string): SetupFile => ({
  path: "AGENTS.md",
  merge: (current) => {
    if (current === undefined || current.trim() === "") return { text: `${section}\n` }
    const begin = current.indexOf(AGENTS_SECTION_BEGIN)
    const end = current.indexOf(AGENTS_SECTION_END)
    if (begin === -1 && end === -1) return { text: `${current.trimEnd()}\n\n${section}\n` }
    if (begin === -1 || end < begin || current.indexOf(AGENTS_SECTION_BEGIN, begin + 1) !== -1) {
      return { error: `AGENTS.md has the ${AGENTS_SECTION_BEGIN} and ${AGENTS_SECTION_END} markers out of order or more than once; it was left as it is` }
    }
    return { text: `${current.slice(0, begin)}${section}${current.slice(end + AGENTS_SECTION_END.length)}` }
  }
})

/**
 * What a user must still do in the host after `armory init`, when anything: Codex runs a project's
 * hooks only once the user has trusted each of them (trust is kept in the user's own Codex
 * configuration, which a project cannot write).
 */
export const SETUP_NEXT_STEPS: Readonly<Record<SetupHost, string | undefined>> = {
  "claude-code": undefined,
  opencode: undefined,
  codex:
    "Codex runs the hooks in .codex/hooks.json only once you trust them: start `codex` in this project, open /hooks and trust " +
    "Armory's three (again whenever that file changes). Until then Armory's MCP tools and AGENTS.md section work without them."
}

/** What a setup needs to know besides the command: the loaded skills (for the AGENTS.md section) and how to show their paths. */
export interface SetupContext {
  readonly skills?: ReadonlyArray<SetupSkill> | undefined
  /** A location as a project-relative path, or undefined outside the project (such skills are not listed). */
  readonly relativeTo?: ((location: string) => string | undefined) | undefined
}

/**
 * The files `armory init <host>` merges into, for a host that starts Armory with `command` (its words,
 * e.g. `["npx", "-y", "@armory/cli"]` or `["armory"]`).
 */
export const hostSetup = (
  host: SetupHost,
  command: ReadonlyArray<string> = DEFAULT_ARMORY_COMMAND,
  context: SetupContext = {}
): ReadonlyArray<SetupFile> => {
  switch (host) {
    case "claude-code":
      return [claudeCodeSettings(command), mcpJson(command)]
    case "opencode":
      return [openCodeConfig(command), openCodePluginFile(command)]
    case "codex":
      return [codexConfig(command), codexHooks(command), agentsFile(agentsSection(context.skills ?? [], context.relativeTo ?? ((location) => location)))]
  }
}
