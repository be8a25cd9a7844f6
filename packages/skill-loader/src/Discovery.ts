import { resolve, sep } from "node:path"
import { Effect, FileSystem, Path, type PlatformError } from "effect"
import type { DroppedDocument } from "./LoadReport.js"

/**
 * Where to look for skills: a path (resolved against `cwd`) to a directory, searched for every
 * `SKILL.md` beneath it, or to a file, read as one skill document whatever its name. An `optional`
 * source that does not exist is skipped silently (a default location); any other missing source is
 * reported in `dropped`. `name` is what the source's skills are addressed by (`<name>:<skill>`);
 * without one it is taken from the path (see {@link sourceNames}).
 */
export type SkillSource = string | { readonly path: string; readonly optional?: boolean; readonly name?: string }

/** A SKILL.md to read, with the label of the source it came from (`directory:<abs>` or `file:<abs>`) and that source's name. */
export interface SkillFile {
  readonly _tag: "SkillFile"
  readonly path: string
  readonly baseDirectory: string
  readonly source: string
  readonly sourceName: string
}

/** A source or directory that could not be read at all. */
export interface Unreadable extends DroppedDocument {
  readonly _tag: "Unreadable"
}

/** A source whose search stopped at a bound, or a bound option that could not be used, and why. */
export interface DiscoveryWarning {
  readonly file: string
  readonly reason: string
}

export interface Discovery {
  /** Labels of the sources that exist, in the order given. */
  readonly sources: ReadonlyArray<string>
  /** Sources in the order given; within a directory, in path order (names compared segment by segment). */
  readonly entries: ReadonlyArray<SkillFile | Unreadable>
  /**
   * Every directory the search listed, as reached: a change to the skills under the sources changes
   * the modification time of one of these or of a SKILL.md, which is how a cache of a load is checked.
   */
  readonly directories: ReadonlyArray<string>
  /** A source whose search stopped at `maxDepth` or `maxDirectories`, and what was left unsearched. */
  readonly warnings: ReadonlyArray<DiscoveryWarning>
}

export interface DiscoveryOptions {
  /** What relative sources are resolved against; the process's working directory by default. */
  readonly cwd?: string
  /** How many directories below a source are searched (default 6: `<source>/a/b/c/d/e/f/SKILL.md` is the deepest found). */
  readonly maxDepth?: number
  /** How many directories of one source are listed at most, nearest first (default 2,000). */
  readonly maxDirectories?: number
}

/** The search bounds when none are given: deep and wide enough for any skill collection, not for a whole disk. */
export const DEFAULT_MAX_DEPTH = 6
export const DEFAULT_MAX_DIRECTORIES = 2000

/** Directories never descended into: they hold dependencies and history, not a host's skills. */
const SKIPPED_DIRECTORIES = new Set([".git", "node_modules"])

const SKILL_FILE_NAME = "SKILL.md"
const CONCURRENCY = 16

/** A one-line description of a platform failure: its kind and the system's own message. */
export const describePlatformError = (error: PlatformError.PlatformError): string => {
  const reason = error.reason
  if (reason._tag === "BadArgument") return `bad argument${reason.description ? `: ${reason.description}` : ""}`
  const detail = reason.description ?? reason.syscall
  return detail === undefined ? reason._tag : `${reason._tag} (${detail})`
}

interface Located {
  readonly path: string
  readonly real: string
}

interface Resolved {
  readonly type: FileSystem.File.Type
  readonly real: string
}

interface SearchBounds {
  readonly maxDepth: number
  readonly maxDirectories: number
}

const walkDirectory = Effect.fnUntraced(function* (
  root: Located,
  source: { readonly label: string; readonly name: string },
  seenDirectories: Set<string>,
  listed: Array<string>,
  bounds: SearchBounds,
  warnings: Array<DiscoveryWarning>
) {
  const fs = yield* FileSystem.FileSystem
  const path = yield* Path.Path
  const found: Array<{ readonly entry: SkillFile | Unreadable; readonly sortKey: string }> = []
  const sortKey = (file: string) => path.relative(root.path, file).split(path.sep).join("\u0000")
  // A link's real path only matters when it leads to a directory (to search it once); most links lead to files.
  const resolveLink = (link: string) =>
    fs.stat(link).pipe(
      Effect.flatMap((info) =>
        info.type === "Directory"
          ? Effect.map(fs.realPath(link), (real): Resolved => ({ type: info.type, real }))
          : Effect.succeed<Resolved>({ type: info.type, real: link })
      ),
      // A dangling link resolves to nothing; if it is named SKILL.md, reading it reports why.
      Effect.orElseSucceed((): Resolved => ({ type: "Unknown", real: link }))
    )

  let frontier: ReadonlyArray<Located> = [root]
  let depth = 0
  let listedHere = 0
  while (frontier.length > 0) {
    const budget = bounds.maxDirectories - listedHere
    const skipped = frontier.slice(budget)
    frontier = frontier.slice(0, budget)
    listedHere += frontier.length
    for (const directory of frontier) listed.push(directory.path)
    const listings = yield* Effect.forEach(frontier, (directory) => Effect.result(fs.readDirectoryEntries(directory.path)), {
      concurrency: CONCURRENCY
    })
    const children: Array<{ readonly parent: Located; readonly entry: FileSystem.DirectoryEntry }> = []
    listings.forEach((listing, index) => {
      const parent = frontier[index] as Located
      if (listing._tag === "Failure") {
        found.push({
          entry: { _tag: "Unreadable", file: parent.path, reason: `directory unreadable: ${describePlatformError(listing.failure)}` },
          sortKey: sortKey(parent.path)
        })
        return
      }
      // Only what can hold or be a SKILL.md matters; a directory of many plain files costs its listing alone.
      const relevant = listing.success.filter(({ name, type }) => type === "Directory" || type === "SymbolicLink" || name === SKILL_FILE_NAME)
      for (const entry of relevant.toSorted((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) children.push({ parent, entry })
    })
    const links = children.filter(({ entry }) => entry.type === "SymbolicLink")
    const linkTargets = yield* Effect.forEach(links, ({ parent, entry }) => resolveLink(path.join(parent.path, entry.name)), { concurrency: CONCURRENCY })
    const resolvedLinks = new Map(links.map((child, index) => [child, linkTargets[index] as Resolved]))
    const next: Array<Located> = []
    children.forEach((child) => {
      const { parent, entry } = child
      const target = resolvedLinks.get(child) ?? { type: entry.type, real: path.join(parent.real, entry.name) }
      const childPath = path.join(parent.path, entry.name)
      if (entry.name === SKILL_FILE_NAME) {
        found.push({
          entry: { _tag: "SkillFile", path: childPath, baseDirectory: parent.path, source: source.label, sourceName: source.name },
          sortKey: sortKey(childPath)
        })
      }
      // Tracking real paths is what makes symbolic-link loops (and two links to one place) safe.
      if (target.type === "Directory" && !SKIPPED_DIRECTORIES.has(entry.name) && !seenDirectories.has(target.real)) {
        seenDirectories.add(target.real)
        next.push({ path: childPath, real: target.real })
      }
    })
    depth++
    // At the bound this level is the last one listed: below it nothing is searched, not even under the directories it kept.
    if (listedHere >= bounds.maxDirectories && (skipped.length > 0 || next.length > 0)) {
      const unsearched = skipped.length > 0 ? `${skipped.length} directories at depth ${depth - 1} and everything below depth ${depth - 1} were` : `everything below depth ${depth - 1} was`
      warnings.push({
        file: root.path,
        reason: `search stopped at maxDirectories ${bounds.maxDirectories}: ${unsearched} not searched, starting with ${JSON.stringify((skipped[0] ?? next[0])?.path)}`
      })
      break
    }
    if (next.length > 0 && depth > bounds.maxDepth) {
      warnings.push({
        file: root.path,
        reason: `search stopped at maxDepth ${bounds.maxDepth}: ${next.length} directories ${depth} levels down were not searched, starting with ${JSON.stringify(next[0]?.path)}`
      })
      break
    }
    frontier = next
  }
  return found.toSorted((a, b) => (a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : 0)).map(({ entry }) => entry)
})

const SOURCE_NAME = /^[^\s:]{1,64}$/

/** The last segment of a path that says something: `skills` itself names no collection, so its parent does. */
const nameFromPath = (segments: ReadonlyArray<string>): string => {
  const meaningful = segments.filter((segment) => segment !== "")
  const last = meaningful.at(-1) ?? "root"
  const chosen = last === "skills" && meaningful.length > 1 ? (meaningful.at(-2) as string) : last
  const name = chosen.replace(/^\.+/, "").replace(/[\s:]+/g, "-").slice(0, 64)
  return name === "" ? "root" : name
}

/**
 * The name each source's skills are addressed by, in order: the one given, or one taken from the
 * path (the directory's own name, or its parent's when it is called `skills`: `~/.claude/skills` is
 * `claude`; a file source is named by its directory). A name already taken gets `-2`, `-3`, … so
 * every source has its own. A given name must be 1–64 characters without spaces or `:`; one that is
 * not is replaced by the name from the path.
 */
export const sourceNames = (sources: ReadonlyArray<SkillSource>, options: { readonly cwd?: string } = {}): ReadonlyArray<string> => {
  const taken = new Set<string>()
  return sources.map((source) => {
    const { path: given, name } = typeof source === "string" ? { path: source, name: undefined } : source
    const absolute = options.cwd === undefined ? resolve(given) : resolve(options.cwd, given)
    const segments = absolute.split(sep)
    const base = name !== undefined && SOURCE_NAME.test(name) ? name : nameFromPath(segments.at(-1) === "SKILL.md" || /\.md$/i.test(absolute) ? segments.slice(0, -1) : segments)
    let candidate = base
    for (let suffix = 2; taken.has(candidate); suffix++) candidate = `${base}-${suffix}`
    taken.add(candidate)
    return candidate
  })
}

const boundOption = (
  option: "maxDepth" | "maxDirectories",
  value: number | undefined,
  fallback: number,
  warnings: Array<DiscoveryWarning>
): number => {
  if (value === undefined) return fallback
  if (Number.isSafeInteger(value) && value >= 0) return value
  warnings.push({ file: `options.${option}`, reason: `${option} must be a non-negative integer, got ${String(value)}; ${fallback} was used` })
  return fallback
}

/**
 * Finds every SKILL.md of the given sources, in load order, without reading any of them. Never
 * fails: a source or directory that cannot be read becomes an `Unreadable` entry. Symbolic links
 * are followed; a directory reached twice (a link loop, two links to one place, or one folder linked
 * into two sources) is searched once, by its real path, through the first source that reaches it.
 * Each source's search is bounded by `maxDepth` and `maxDirectories`; reaching either is a warning.
 */
export const discoverSkillFiles = Effect.fn("discoverSkillFiles")(function* (
  sources: ReadonlyArray<SkillSource>,
  options: DiscoveryOptions = {}
) {
  const fs = yield* FileSystem.FileSystem
  const path = yield* Path.Path
  const labels: Array<string> = []
  const entries: Array<SkillFile | Unreadable> = []
  const directories: Array<string> = []
  const warnings: Array<DiscoveryWarning> = []
  const bounds: SearchBounds = {
    maxDepth: boundOption("maxDepth", options.maxDepth, DEFAULT_MAX_DEPTH, warnings),
    maxDirectories: boundOption("maxDirectories", options.maxDirectories, DEFAULT_MAX_DIRECTORIES, warnings)
  }
  const names = sourceNames(sources, options)
  // One set for every source: a folder linked into two roots (`~/.claude/skills` → `~/.agents/skills`)
  // is the same skills, found through the earlier root only.
  const searched = new Set<string>()
  for (const [index, source] of sources.entries()) {
    const { path: given, optional = false } = typeof source === "string" ? { path: source } : source
    const sourceName = names[index] as string
    const absolute = options.cwd === undefined ? path.resolve(given) : path.resolve(options.cwd, given)
    const info = yield* Effect.result(fs.stat(absolute))
    if (info._tag === "Failure") {
      const missing = info.failure.reason._tag === "NotFound"
      if (!(missing && optional)) {
        entries.push({
          _tag: "Unreadable",
          file: absolute,
          reason: missing ? "source not found" : `source unreadable: ${describePlatformError(info.failure)}`
        })
      }
      continue
    }
    if (info.success.type !== "Directory") {
      const label = `file:${absolute}`
      labels.push(label)
      entries.push({ _tag: "SkillFile", path: absolute, baseDirectory: path.dirname(absolute), source: label, sourceName })
      continue
    }
    const label = `directory:${absolute}`
    labels.push(label)
    const real = yield* Effect.result(fs.realPath(absolute))
    if (real._tag === "Failure") {
      entries.push({ _tag: "Unreadable", file: absolute, reason: `source unreadable: ${describePlatformError(real.failure)}` })
      continue
    }
    if (searched.has(real.success)) continue
    searched.add(real.success)
    entries.push(...(yield* walkDirectory({ path: absolute, real: real.success }, { label, name: sourceName }, searched, directories, bounds, warnings)))
  }
  return { sources: labels, entries, directories, warnings } satisfies Discovery
})
