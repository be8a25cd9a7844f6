import { expandBraces, globToRegExpSource } from "./internal/Glob.js"

/**
 * Path globs: repo-relative POSIX file paths (what a post-edit hook passes), in the URL glob
 * dialect plus `{a,b}` alternatives. Case-sensitive.
 */

/** More alternatives than this is a mistake, not a pattern; such a glob matches nothing. */
export const MAX_BRACE_EXPANSION = 256

export interface PathGlob {
  readonly glob: string
  readonly warning: string | undefined
  matches(path: string): boolean
}

/** `./src/a.ts` and `src/a.ts` name the same file. */
export const normalizePath = (path: string): string => path.replace(/^(?:\.\/)+/, "")

export const compilePathGlob = (glob: string): PathGlob => {
  const alternatives = expandBraces(normalizePath(glob.trim()), MAX_BRACE_EXPANSION)
  if (alternatives === undefined) {
    return {
      glob,
      warning: `its \`{a,b}\` alternatives expand to more than ${MAX_BRACE_EXPANSION} globs; it matches nothing`,
      matches: () => false
    }
  }
  const pattern = new RegExp(`^(?:${alternatives.map(globToRegExpSource).join("|")})$`, "s")
  return { glob, warning: undefined, matches: (path) => pattern.test(normalizePath(path)) }
}
