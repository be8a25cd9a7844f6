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
  /**
   * Whose skill wins a name both the project and the user hold: `"project"` (the default: a
   * project's skills are what its team agreed on) or `"personal"`, Claude Code's documented rule
   * (a personal skill overrides a project skill of the same name).
   */
  readonly precedence?: SkillPrecedence
}

/** Whose skill wins a name clash between the project's roots and the user's. */
export type SkillPrecedence = "project" | "personal"

/**
 * The roots a host reads when none are named, earlier first (earlier wins a name clash), each named
 * for the addresses of its skills (`user-claude:pdf`): the project's own, then the user's, in the
 * places Armory, Claude Code, the Agent Skills convention (`.agents/skills`, which Codex reads),
 * OpenCode and Codex keep them. Every one may be absent; a path listed twice (the project is the
 * home directory) is read once.
 */
/** A default root: its name, whose it is, and where it is under the project or the user's home. */
interface DefaultRoot {
  readonly name: string
  readonly scope: "project" | "user"
  readonly path: (places: { readonly codexHome: string; readonly configHome: string }) => ReadonlyArray<string>
  /** How the root is written for a reader, under `.` or `~`. */
  readonly shown: string
}

const DEFAULT_ROOTS: ReadonlyArray<DefaultRoot> = [
  { name: "project", scope: "project", path: () => [".armory", "skills"], shown: ".armory/skills" },
  { name: "project-claude", scope: "project", path: () => [".claude", "skills"], shown: ".claude/skills" },
  { name: "project-agents", scope: "project", path: () => [".agents", "skills"], shown: ".agents/skills" },
  { name: "project-opencode", scope: "project", path: () => [".opencode", "skills"], shown: ".opencode/skills" },
  { name: "user", scope: "user", path: () => [".armory", "skills"], shown: "~/.armory/skills" },
  { name: "user-claude", scope: "user", path: () => [".claude", "skills"], shown: "~/.claude/skills" },
  { name: "user-agents", scope: "user", path: () => [".agents", "skills"], shown: "~/.agents/skills" },
  { name: "user-opencode", scope: "user", path: ({ configHome }) => [configHome, "opencode", "skills"], shown: "$XDG_CONFIG_HOME/opencode/skills (~/.config/opencode/skills)" },
  { name: "user-codex", scope: "user", path: ({ codexHome }) => [codexHome, "skills"], shown: "$CODEX_HOME/skills (~/.codex/skills)" }
]

/** The default roots in one sentence, earlier first, for help texts. */
export const DEFAULT_SKILL_ROOTS_TEXT = `the project's ${DEFAULT_ROOTS.filter((root) => root.scope === "project")
  .map((root) => root.shown)
  .join(", ")}, then the user's ${DEFAULT_ROOTS.filter((root) => root.scope === "user")
  .map((root) => root.shown)
  .join(", ")}`

/**
 * The roots a host reads when none are named, earlier first (earlier wins a name clash), each named
 * for the addresses of its skills (`user-claude:pdf`): the project's own, then the user's, in the
 * places Armory, Claude Code, the Agent Skills convention (`.agents/skills`, which Codex reads),
 * OpenCode and Codex keep them; with `precedence: "personal"`, the user's first. Every one may be
 * absent; a path listed twice (the project is the home directory) is read once.
 */
export const defaultSkillSources = (options: DefaultSkillSourceOptions = {}): ReadonlyArray<SkillSource> => {
  const project = resolve(options.cwd ?? ".")
  const home = options.home ?? homedir()
  const env = options.env ?? process.env
  const codexHome = env["CODEX_HOME"] !== undefined && env["CODEX_HOME"] !== "" ? resolve(env["CODEX_HOME"]) : join(home, ".codex")
  const configHome = env["XDG_CONFIG_HOME"] !== undefined && env["XDG_CONFIG_HOME"] !== "" ? resolve(env["XDG_CONFIG_HOME"]) : join(home, ".config")
  const ordered = options.precedence === "personal" ? [...DEFAULT_ROOTS.filter((root) => root.scope === "user"), ...DEFAULT_ROOTS.filter((root) => root.scope === "project")] : DEFAULT_ROOTS
  // Run from the home directory, the project's roots are the user's: each is read once, under its first name.
  const seen = new Set<string>()
  const sources: Array<SkillSource> = []
  for (const root of ordered) {
    const path = resolve(root.scope === "project" ? project : home, ...root.path({ codexHome, configHome }))
    if (seen.has(path)) continue
    seen.add(path)
    sources.push({ path, name: root.name, optional: true })
  }
  return sources
}

/** The named roots (earlier wins on a name clash), resolved against the working directory, or the default ones. */
export const skillSources = (dirs: ReadonlyArray<string>): ReadonlyArray<SkillSource> =>
  dirs.length > 0 ? dirs.map((dir) => resolve(dir)) : defaultSkillSources()
