import { homedir } from "node:os"
import { join, resolve } from "node:path"
import type { SkillSource } from "@armory/skill-loader"

/** The roots a host reads when none are named: the project's `.armory/skills`, then the user's; either may be absent. */
export const defaultSkillSources = (options: { readonly cwd?: string; readonly home?: string } = {}): ReadonlyArray<SkillSource> => [
  { path: resolve(options.cwd ?? ".", ".armory", "skills"), optional: true },
  { path: join(options.home ?? homedir(), ".armory", "skills"), optional: true }
]

/** The named roots (earlier wins on a name clash), resolved against the working directory, or the default ones. */
export const skillSources = (dirs: ReadonlyArray<string>): ReadonlyArray<SkillSource> =>
  dirs.length > 0 ? dirs.map((dir) => resolve(dir)) : defaultSkillSources()
