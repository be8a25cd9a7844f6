import { homedir } from "node:os"
import { join, resolve } from "node:path"
import type { SkillSource } from "@armory/skill-loader"

export interface DefaultSkillSourceOptions {
  /** The project directory (default: the working directory). */
  readonly cwd?: string
  /** The user's home directory (default: the operating system's). */
  readonly home?: string
  /** Read for `CODEX_HOME` and `XDG_CONFIG_HOME` (default: `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>
}

/**
 * The roots a host reads when none are named, earlier first (earlier wins a name clash), each named
 * for the addresses of its skills (`user-claude:pdf`): the project's own, then the user's, in the
 * places Armory, Claude Code, the Agent Skills convention (`.agents/skills`, which Codex reads),
 * OpenCode and Codex keep them. Every one may be absent; a path listed twice (the project is the
 * home directory) is read once.
 */
export const defaultSkillSources = (options: DefaultSkillSourceOptions = {}): ReadonlyArray<SkillSource> => {
  const project = resolve(options.cwd ?? ".")
  const home = options.home ?? homedir()
  const env = options.env ?? process.env
  const codexHome = env["CODEX_HOME"] !== undefined && env["CODEX_HOME"] !== "" ? resolve(env["CODEX_HOME"]) : join(home, ".codex")
  const configHome = env["XDG_CONFIG_HOME"] !== undefined && env["XDG_CONFIG_HOME"] !== "" ? resolve(env["XDG_CONFIG_HOME"]) : join(home, ".config")
  const roots: ReadonlyArray<readonly [string, string]> = [
    ["project", join(project, ".armory", "skills")],
    ["project-claude", join(project, ".claude", "skills")],
    ["project-agents", join(project, ".agents", "skills")],
    ["project-opencode", join(project, ".opencode", "skills")],
    ["user", join(home, ".armory", "skills")],
    ["user-claude", join(home, ".claude", "skills")],
    ["user-agents", join(home, ".agents", "skills")],
    ["user-opencode", join(configHome, "opencode", "skills")],
    ["user-codex", join(codexHome, "skills")]
  ]
  // Run from the home directory, the project's roots are the user's: each is read once, under its first name.
  const seen = new Set<string>()
  const unique = roots.filter(([, path]) => {
    if (seen.has(path)) return false
    seen.add(path)
    return true
  })
  return unique.map(([name, path]) => ({ path, name, optional: true }))
}

/** The named roots (earlier wins on a name clash), resolved against the working directory, or the default ones. */
export const skillSources = (dirs: ReadonlyArray<string>): ReadonlyArray<SkillSource> =>
  dirs.length > 0 ? dirs.map((dir) => resolve(dir)) : defaultSkillSources()
