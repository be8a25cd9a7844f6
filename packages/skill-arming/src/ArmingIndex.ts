import AhoCorasick from "modern-ahocorasick"
import type { Armable, Armed, ArmingWarning } from "./Armable.js"
import type { FileEdit } from "./Edit.js"
import { armedFrom } from "./internal/ArmedFrom.js"
import { pathsInPlay, PreparedEdit } from "./internal/EditMatch.js"
import { hasWordBoundaries, type KeywordEdges, keywordEdges, normalizeKeyword, PromptText } from "./Keyword.js"
import { compilePathGlob, type PathGlob } from "./PathGlob.js"
import { requestSpans, withinRequest } from "./Request.js"
import { compileUrlGlob, normalizeUrl, type UrlGlob } from "./UrlGlob.js"

const NOT_MATCHABLE = -1

interface CompiledKeyword {
  readonly edges: KeywordEdges
  readonly owners: Array<number>
}

interface Compiled<T> {
  readonly pattern: T
  readonly owners: Array<number>
}

interface CompiledSkill {
  readonly skill: Armable
  readonly keywordIds: ReadonlyArray<number>
  readonly unlessIds: ReadonlyArray<number>
  readonly urlIds: ReadonlyArray<number>
  readonly pathIds: ReadonlyArray<number>
}

/** Interns each distinct pattern once, remembering which skills declared it. */
class Interner<T> {
  readonly entries: Array<Compiled<T>> = []
  readonly #ids = new Map<string, number>()

  intern(key: string, owner: number, compile: () => T): number {
    let id = this.#ids.get(key)
    if (id === undefined) {
      id = this.entries.length
      this.#ids.set(key, id)
      this.entries.push({ pattern: compile(), owners: [] })
    }
    const owners = this.entries[id]?.owners
    if (owners !== undefined && owners.at(-1) !== owner) owners.push(owner)
    return id
  }
}

/**
 * A skill set compiled for repeated arming: every distinct keyword goes into one Aho–Corasick
 * automaton and is checked once however many skills declare it; URL globs with a literal host are
 * looked up by host. Build it once per skill set and pass it to `arm` as `skills`.
 */
export class ArmingIndex {
  /** Globs that work but are risky (e.g. a host ending in a wildcard), in skill order. */
  readonly warnings: ReadonlyArray<ArmingWarning>
  /** How many skills the index holds. */
  readonly size: number
  readonly #skills: ReadonlyArray<CompiledSkill>
  readonly #keywords: ReadonlyArray<CompiledKeyword>
  readonly #matcher: AhoCorasick<number> | undefined
  readonly #urls: ReadonlyArray<Compiled<UrlGlob>>
  readonly #urlsByHost: ReadonlyMap<string, ReadonlyArray<number>>
  readonly #urlsAnyHost: ReadonlyArray<number>
  readonly #paths: ReadonlyArray<Compiled<PathGlob>>
  /** Whether any skill counts keywords only in a request: only then are a prompt's requests looked for. */
  readonly #anyRequested: boolean
  /** The skills with an edit condition, which an edit makes candidates whatever its path. */
  readonly #editConditioned: ReadonlyArray<number>

  constructor(skills: ReadonlyArray<Armable>) {
    const keywordTexts: Array<string> = []
    const keywords = new Interner<CompiledKeyword>()
    const urls = new Interner<UrlGlob>()
    const paths = new Interner<PathGlob>()
    const warnings: Array<ArmingWarning> = []

    const internKeyword = (keyword: string, owner: number) => {
      const text = normalizeKeyword(keyword)
      if (text === "") return NOT_MATCHABLE
      return keywords.intern(text, owner, () => {
        keywordTexts.push(text)
        return { edges: keywordEdges(text), owners: [] }
      })
    }
    this.#skills = skills.map((skill, owner) => {
      const block = skill.autoInject
      const keywordIds = (block?.keywords ?? []).map((keyword) => internKeyword(keyword, owner))
      const unlessIds = (block?.unless ?? []).map((keyword) => internKeyword(keyword, NOT_MATCHABLE))
      const urlIds = (block?.url ?? []).map((glob) => {
        const id = urls.intern(glob, owner, () => compileUrlGlob(glob))
        const warning = urls.entries[id]?.pattern.warning
        if (warning !== undefined) warnings.push({ skill: skill.name, pattern: glob, reason: warning })
        return id
      })
      const pathIds = (block?.paths ?? []).map((glob) => {
        const id = paths.intern(glob, owner, () => compilePathGlob(glob))
        const warning = paths.entries[id]?.pattern.warning
        if (warning !== undefined) warnings.push({ skill: skill.name, pattern: glob, reason: warning })
        return id
      })
      return { skill, keywordIds, unlessIds, urlIds, pathIds }
    })
    this.#anyRequested = skills.some((skill) => skill.autoInject?.requested === true)
    this.#editConditioned = skills.flatMap((skill, owner) => (skill.autoInject?.edits === undefined ? [] : [owner]))

    this.#keywords = keywords.entries.map(({ pattern, owners }) => ({ edges: pattern.edges, owners }))
    this.#matcher =
      keywordTexts.length === 0
        ? undefined
        : new AhoCorasick(keywordTexts.map((pattern, id) => ({ pattern, data: id })))
    this.#urls = urls.entries
    const byHost = new Map<string, Array<number>>()
    const anyHost: Array<number> = []
    urls.entries.forEach(({ pattern }, id) => {
      if (pattern.literalHost === undefined) anyHost.push(id)
      else byHost.set(pattern.literalHost, [...(byHost.get(pattern.literalHost) ?? []), id])
    })
    this.#urlsByHost = byHost
    this.#urlsAnyHost = anyHost
    this.#paths = paths.entries
    this.warnings = warnings
    this.size = skills.length
  }

  /** The skills that arm for this prompt, URL, paths and edits, in the order they were compiled. */
  arm(prompt: string, url: string | undefined, filePaths: ReadonlyArray<string> | undefined, fileEdits?: ReadonlyArray<FileEdit> | undefined): ReadonlyArray<Armed> {
    const candidates = new Set<number>()
    const { hits: keywordHits, requestedHits } = this.#matchKeywords(prompt, candidates)
    const urlHits = this.#matchUrl(url, candidates)
    const pathHits = this.#matchPaths(pathsInPlay({ paths: filePaths, edits: fileEdits }), candidates)
    const edits = (fileEdits ?? []).map((edit) => new PreparedEdit(edit))
    if (edits.length > 0) for (const owner of this.#editConditioned) candidates.add(owner)
    const armed: Array<Armed> = []
    for (const owner of [...candidates].toSorted((a, b) => a - b)) {
      const compiled = this.#skills[owner]
      if (compiled === undefined) continue
      const result = armedFrom(compiled.skill, {
        keyword: (index, requested) => (requested ? requestedHits : keywordHits)[compiled.keywordIds[index] ?? NOT_MATCHABLE] === 1,
        unless: (index) => keywordHits[compiled.unlessIds[index] ?? NOT_MATCHABLE] === 1,
        url: (index) => urlHits[compiled.urlIds[index] ?? NOT_MATCHABLE] === 1,
        path: (index) => pathHits[compiled.pathIds[index] ?? NOT_MATCHABLE] === 1,
        pathMatches: (index, path) => this.#paths[compiled.pathIds[index] ?? NOT_MATCHABLE]?.pattern.matches(path) === true,
        edits
      })
      if (result !== undefined) armed.push(result)
    }
    return armed
  }

  /**
   * Every keyword the prompt holds (`hits`), and those with an occurrence inside a request
   * (`requestedHits`, looked for only when some skill asks for it). An `unless` pattern has no
   * owner: it makes no skill a candidate, it only silences one.
   */
  #matchKeywords(prompt: string, candidates: Set<number>): { readonly hits: Uint8Array; readonly requestedHits: Uint8Array } {
    const hits = new Uint8Array(this.#keywords.length)
    const requestedHits = new Uint8Array(this.#keywords.length)
    if (this.#matcher === undefined) return { hits, requestedHits }
    const text = new PromptText(prompt).text
    const spans = this.#anyRequested ? requestSpans(text) : []
    for (const match of this.#matcher.iterate(text)) {
      const id = match.data ?? NOT_MATCHABLE
      const keyword = this.#keywords[id]
      if (keyword === undefined || (hits[id] === 1 && (requestedHits[id] === 1 || spans.length === 0))) continue
      if (!hasWordBoundaries(text, match.start, match.end, keyword.edges)) continue
      hits[id] = 1
      if (withinRequest(spans, match.start, match.end)) requestedHits[id] = 1
      for (const owner of keyword.owners) if (owner !== NOT_MATCHABLE) candidates.add(owner)
    }
    return { hits, requestedHits }
  }

  #matchUrl(url: string | undefined, candidates: Set<number>): Uint8Array {
    const hits = new Uint8Array(this.#urls.length)
    const subject = url === undefined ? undefined : normalizeUrl(url)
    if (subject === undefined) return hits
    const slash = subject.indexOf("/")
    const host = slash === -1 ? subject : subject.slice(0, slash)
    for (const id of [...(this.#urlsByHost.get(host) ?? []), ...this.#urlsAnyHost]) {
      const compiled = this.#urls[id]
      if (compiled !== undefined && compiled.pattern.matches(subject)) {
        hits[id] = 1
        for (const owner of compiled.owners) candidates.add(owner)
      }
    }
    return hits
  }

  #matchPaths(filePaths: ReadonlyArray<string>, candidates: Set<number>): Uint8Array {
    const hits = new Uint8Array(this.#paths.length)
    if (filePaths.length === 0) return hits
    this.#paths.forEach((compiled, id) => {
      if (filePaths.some((path) => compiled.pattern.matches(path))) {
        hits[id] = 1
        for (const owner of compiled.owners) candidates.add(owner)
      }
    })
    return hits
  }
}

/** Compiles a skill set once for fast repeated `arm` calls, reporting risky globs in `warnings`. */
export const compileSkills = (skills: ReadonlyArray<Armable>): ArmingIndex => new ArmingIndex(skills)
