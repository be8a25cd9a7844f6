import { createHash } from "node:crypto"
import { join } from "node:path"
import { type Armable, type Armed, arm, type FileEdit } from "@armory/skill-arming"
import type { SkillSource } from "@armory/skill-loader"
import { type FileStamp, isRecord, isStampList, readCache, stampOf, stampsHold, writeCache } from "./FileStamps.js"

/**
 * The longest skill body a hook hands the model in full; a longer one is named by its SKILL.md for
 * the model to read. A hook's whole answer is at most 10,000 characters.
 */
export const MAX_DELIVERED_BODY_CHARS = 6_000

/**
 * What a hook needs of a skill: what arms it and where its SKILL.md is; for a skill that can arm,
 * its body when short enough to hand over whole, and its version (a digest of the body), by which a
 * session that was given it knows whether it changed.
 */
export interface HookSkill extends Armable {
  readonly location: string
  readonly body?: string | undefined
  readonly version?: string | undefined
}

/** A skill that armed for a hook, with its SKILL.md, and its body and version when it has them. */
export interface HookArmed extends Armed {
  readonly location: string
  readonly body?: string | undefined
  readonly version?: string | undefined
}

const CACHE_VERSION = 3

const digest = (text: string): string => createHash("sha256").update(text).digest("base64url").slice(0, 22)

interface CatalogCache {
  readonly version: typeof CACHE_VERSION
  readonly sources: string
  readonly stamps: ReadonlyArray<FileStamp>
  readonly skills: ReadonlyArray<HookSkill>
}

const isCatalogCache = (value: unknown, sources: string): value is CatalogCache =>
  isRecord(value) && value["version"] === CACHE_VERSION && value["sources"] === sources && isStampList(value["stamps"]) && Array.isArray(value["skills"])

const sourcePath = (source: SkillSource): string => (typeof source === "string" ? source : source.path)

/**
 * Loads the roots the way every surface does (`@armory/skill-loader`, imported only now: it is the
 * slow part) and stamps what the load depended on: each source, every directory the search listed
 * and every SKILL.md. Stamps are taken before the load, so a change made while it runs is seen next time.
 */
const loadAndStamp = async (sources: ReadonlyArray<SkillSource>): Promise<Omit<CatalogCache, "version" | "sources">> => {
  const { discoverSkills, loadSkills } = await import("@armory/skill-loader")
  const discovery = await discoverSkills(sources)
  const stamped = [
    ...sources.map(sourcePath),
    ...discovery.directories,
    ...discovery.entries.flatMap((entry) => (entry._tag === "SkillFile" ? [entry.path] : []))
  ]
  const stamps = [...new Set(stamped)].map(stampOf)
  const report = await loadSkills(sources)
  // Only a skill that can arm is ever handed over, so only those carry their body in the cache.
  const skills = report.skills.map(({ name, location, autoInject, body }) =>
    autoInject === undefined
      ? { name, location }
      : { name, location, autoInject, version: digest(body), ...(body.trim().length <= MAX_DELIVERED_BODY_CHARS ? { body: body.trim() } : {}) }
  )
  return { stamps, skills }
}

/**
 * The skills under `sources`, as a hook process needs them on every prompt. The load is kept in
 * `cacheDirectory` with the stamps of what it read; while every stamp holds (one `stat` per directory and
 * SKILL.md, no file is read or parsed) the cached skills are the load's, and otherwise the roots
 * are loaded again and the cache rewritten.
 */
export const hookSkills = async (sources: ReadonlyArray<SkillSource>, cacheDirectory: string): Promise<ReadonlyArray<HookSkill>> => {
  const cacheFile = join(cacheDirectory, "hook-catalog.json")
  const key = JSON.stringify(sources)
  const cached = readCache(cacheFile)
  if (isCatalogCache(cached, key) && stampsHold(cached.stamps)) return cached.skills
  const fresh = await loadAndStamp(sources)
  writeCache(cacheFile, { version: CACHE_VERSION, sources: key, ...fresh } satisfies CatalogCache)
  return fresh.skills
}

/**
 * The skills that arm for a prompt, a page URL, repository-relative paths or what edits changed, each with its SKILL.md.
 * A hook process arms once and exits, so the skills are matched directly rather than compiled into
 * an index first (which pays off only over many calls), and only the kinds of pattern the request
 * can match are looked at: a prompt alone never needs the 1,000 path globs of a large catalog.
 */
export const armForHook = (
  skills: ReadonlyArray<HookSkill>,
  request: {
    readonly prompt: string
    readonly url?: string | undefined
    readonly paths?: ReadonlyArray<string> | undefined
    readonly edits?: ReadonlyArray<FileEdit> | undefined
  }
): ReadonlyArray<HookArmed> => {
  const byName = new Map(skills.map((skill) => [skill.name, skill]))
  const matchable = skills.map(({ name, autoInject }) => ({
    name,
    autoInject: {
      ...(request.prompt === "" ? {} : { keywords: autoInject?.keywords ?? [], requested: autoInject?.requested === true, unless: autoInject?.unless ?? [] }),
      ...(request.url === undefined ? {} : { url: autoInject?.url ?? [] }),
      ...((request.paths === undefined && request.edits === undefined) || autoInject?.paths === undefined ? {} : { paths: autoInject.paths }),
      ...(request.edits === undefined || autoInject?.edits === undefined ? {} : { edits: autoInject.edits })
    }
  }))
  return arm({ skills: matchable, ...request }).map((armed) => {
    const skill = byName.get(armed.name)
    return { ...armed, location: skill?.location ?? "", ...(skill?.body === undefined ? {} : { body: skill.body }), ...(skill?.version === undefined ? {} : { version: skill.version }) }
  })
}

/** Where a project's hook caches live. */
export const hookCacheDirectory = (projectDir: string): string => join(projectDir, ".armory", "cache")
