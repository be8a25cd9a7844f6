import { existsSync } from "node:fs"
import { homedir } from "node:os"
import { dirname, join, resolve } from "node:path"

/** What marks a project's root, first found first: Armory's own folder, then the repository's. */
const ROOT_MARKERS = [".armory", ".git"] as const

/**
 * The project a host's session works in, from the directory the session runs in: the nearest
 * folder at or above it that holds `.armory`, else the nearest that holds `.git`, else the directory
 * itself. The search stops below the user's home directory (whose `.armory` holds the user's own
 * skills, not a project's) and never reaches the filesystem root, so a session started in a
 * subfolder works on the same goals and skills as one started at the root, and one outside any
 * repository works where it was started.
 */
export const projectRootOf = (directory: string, options: { readonly home?: string | undefined } = {}): string => {
  const start = resolve(directory)
  const home = resolve(options.home ?? homedir())
  for (const marker of ROOT_MARKERS) {
    for (let current = start; ; current = dirname(current)) {
      if (current === home || dirname(current) === current) break
      if (existsSync(join(current, marker))) return current
    }
  }
  return start
}
