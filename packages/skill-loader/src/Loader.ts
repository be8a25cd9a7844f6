import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import { basename, dirname } from "node:path"
import * as NodePath from "@effect/platform-node/NodePath"
import { compileSkills } from "@armory/skill-arming"
import { ByteSize, Data, Effect, FileSystem, Layer, Logger, type Path } from "effect"
import { describePlatformError, type Discovery, type DiscoveryOptions, discoverSkillFiles, type SkillFile, type SkillSource } from "./Discovery.js"
import { formatLoadWarning } from "./internal/loadWarning.js"
import { describeValue } from "./internal/text.js"
import { MAX_SKILL_FILE_BYTES } from "./Limits.js"
import type { ArmingWarningEntry, DroppedDocument, IgnoredAutoInject, LoadReport, ShadowedSkill } from "./LoadReport.js"
import { decodeSkillDocument, type SkillDocument } from "./SkillDocument.js"
import type { SkillInfo } from "./SkillInfo.js"

export type LoadOptions = DiscoveryOptions

class UnreadableDocument extends Data.TaggedError("UnreadableDocument")<{ readonly reason: string }> {}

/**
 * Reads in flight at once. Each read is a few file-system calls on libuv's small thread pool, so
 * many must be queued to keep it busy; at most 64 MiB of documents (64 at the 1 MiB limit) are held.
 */
const READ_CONCURRENCY = 64

const tooLarge = (bytes: bigint | number) =>
  new UnreadableDocument({ reason: `file too large: ${bytes} bytes, over the ${MAX_SKILL_FILE_BYTES}-byte limit` })

/** Reads a SKILL.md only once `stat` shows a regular file within the size limit (never a FIFO or a device). */
const readSkillFile = Effect.fnUntraced(function* (file: string) {
  const fs = yield* FileSystem.FileSystem
  const unreadable = (error: Parameters<typeof describePlatformError>[0]) =>
    new UnreadableDocument({ reason: `unreadable: ${describePlatformError(error)}` })
  const info = yield* fs.stat(file).pipe(
    Effect.catch((error) =>
      fs.lstat(file).pipe(
        Effect.matchEffect({
          onFailure: () => Effect.fail(unreadable(error)),
          onSuccess: (link) =>
            link.type === "SymbolicLink"
              ? fs.readLink(file).pipe(
                  Effect.matchEffect({
                    onFailure: () => Effect.fail(new UnreadableDocument({ reason: "unreadable: dangling symbolic link" })),
                    onSuccess: (target) =>
                      Effect.fail(new UnreadableDocument({ reason: `unreadable: dangling symbolic link to ${describeValue(target)}` }))
                  })
                )
              : Effect.fail(unreadable(error))
        })
      )
    )
  )
  if (info.type !== "File") return yield* new UnreadableDocument({ reason: `unreadable: not a regular file (${info.type})` })
  const size = ByteSize.toBigInt(info.size)
  if (size > BigInt(MAX_SKILL_FILE_BYTES)) return yield* tooLarge(size)
  const bytes = yield* fs.readFile(file).pipe(Effect.mapError(unreadable))
  // The file may have grown between `stat` and the read.
  if (bytes.length > MAX_SKILL_FILE_BYTES) return yield* tooLarge(bytes.length)
  return bytes
})

const loadDocument = (file: SkillFile): Effect.Effect<SkillDocument, never, FileSystem.FileSystem> =>
  readSkillFile(file.path).pipe(
    Effect.map((bytes) =>
      decodeSkillDocument(bytes, { location: file.path, baseDirectory: file.baseDirectory, source: file.source, sourceName: file.sourceName })
    ),
    Effect.catchTag("UnreadableDocument", ({ reason }) => Effect.succeed<SkillDocument>({ _tag: "Dropped", reason }))
  )

/**
 * Loads the skills of every source, in order. Never fails: each document is read and decoded on
 * its own, and whatever is wrong with one becomes a reason in the report. When two skills share a
 * name the earlier one wins (earlier source; within a directory, earlier path) and the other is
 * reported in `shadowed`. Logs one warning, with every reason in its text, when anything was
 * dropped, ignored or shadowed, or when a loaded skill declares a risky glob (`warnings`).
 */
export const load: (
  sources: ReadonlyArray<SkillSource>,
  options?: LoadOptions
) => Effect.Effect<LoadReport, never, FileSystem.FileSystem | Path.Path> = Effect.fn("load")(function* (
  sources: ReadonlyArray<SkillSource>,
  options: LoadOptions = {}
) {
  const discovery = yield* discoverSkillFiles(sources, options)
  const documents = yield* Effect.forEach(
    discovery.entries,
    (entry) => (entry._tag === "SkillFile" ? loadDocument(entry) : Effect.succeed<SkillDocument>({ _tag: "Dropped", reason: entry.reason })),
    { concurrency: READ_CONCURRENCY }
  )
  const skills: Array<SkillInfo> = []
  const dropped: Array<DroppedDocument> = []
  const ignoredAutoInject: Array<IgnoredAutoInject> = []
  const shadowed: Array<ShadowedSkill> = []
  const lines: Array<string> = []
  const documentWarnings: Array<ArmingWarningEntry> = []
  const loadedNames = new Map<string, { readonly file: string; readonly source: string }>()
  documents.forEach((document, index) => {
    const entry = discovery.entries[index] as (typeof discovery.entries)[number]
    const file = entry._tag === "SkillFile" ? entry.path : entry.file
    if (document._tag === "Dropped") {
      dropped.push({ file, reason: document.reason })
      lines.push(`${file}: ${document.reason}`)
      return
    }
    const { skill } = document
    const winner = loadedNames.get(skill.name)
    if (winner !== undefined) {
      shadowed.push({ name: skill.name, file, by: winner.file, address: skill.address, skill })
      lines.push(`${file}: shadowed: the name "${skill.name}" is already loaded from ${winner.file}`)
      // Across sources the earlier one wins by design; inside one source two skills claim a name
      // and one of them is silently unreachable, which its author should hear of.
      if (winner.source === skill.source) {
        documentWarnings.push({ file: winner.file, reason: `name ${JSON.stringify(skill.name)} is declared again by ${file} in the same source, which is shadowed` })
      }
      return
    }
    loadedNames.set(skill.name, { file, source: skill.source })
    skills.push(skill)
    for (const reason of document.warnings ?? []) documentWarnings.push({ file, reason })
    if (document.ignoredAutoInject !== undefined) {
      ignoredAutoInject.push({ file, reason: document.ignoredAutoInject })
      lines.push(`${file}: autoInject ignored: ${document.ignoredAutoInject}`)
    }
  })
  const warnings = [...discovery.warnings, ...documentWarnings, ...nameWarnings(skills), ...armingWarnings(skills)]
  for (const { file, reason } of warnings) lines.push(`${file}: ${reason}`)
  const report: LoadReport = { skills, dropped, ignoredAutoInject, shadowed, warnings }
  // The warning repeats every reason, made printable character by character: not worth it for no logger.
  const loggers = yield* Logger.CurrentLoggers
  if (lines.length > 0 && loggers.size > 0) yield* Effect.logWarning(formatLoadWarning(report, discovery.sources, lines))
  return report
})

/**
 * The Agent Skills rule that a skill's name matches its parent directory. Hosts load such a skill
 * anyway (the client guide's "warn, load anyway"), so it loads, with a warning a check fails on.
 */
const nameWarnings = (skills: ReadonlyArray<SkillInfo>): Array<ArmingWarningEntry> =>
  skills.flatMap((skill) => {
    // A source that names a file of another name is a lone document, not a skill directory.
    if (basename(skill.location) !== "SKILL.md") return []
    const directory = basename(dirname(skill.location))
    return directory === skill.name
      ? []
      : [{ file: skill.location, reason: `name ${JSON.stringify(skill.name)} does not match its directory ${JSON.stringify(directory)}` }]
  })

/** The risky globs `compileSkills` reports, pinned to the file that declared each. */
const armingWarnings = (skills: ReadonlyArray<SkillInfo>): Array<ArmingWarningEntry> => {
  const files = new Map(skills.map((skill) => [skill.name, skill.location]))
  return compileSkills(skills).warnings.map(({ skill, pattern, reason }) => ({
    file: files.get(skill) ?? skill,
    reason: `risky glob ${JSON.stringify(pattern)}: ${reason}`
  }))
}

const NodeFileSystemAndPath = Layer.mergeAll(NodeFileSystem.layer, NodePath.layer)

/** Where {@link loadSkills} sends the warning {@link load} logs; `console` fits. */
export interface LoadLogger {
  readonly warn: (message: string) => void
}

export interface LoadSkillsOptions extends LoadOptions {
  /** Receives the load warning; without one nothing is written anywhere (the report holds the same facts). */
  readonly logger?: LoadLogger | undefined
}

const warningsTo = (logger: LoadLogger | undefined) =>
  Logger.layer(
    logger === undefined
      ? []
      : [
          Logger.make(({ logLevel, message }) => {
            if (logLevel === "Warn") logger.warn((Array.isArray(message) ? message : [message]).map(String).join(" "))
          })
        ]
  )

/** {@link discoverSkillFiles} on the local file system, for callers without an Effect runtime: what a load would read, without reading it. */
export const discoverSkills = (sources: ReadonlyArray<SkillSource>, options: LoadOptions = {}): Promise<Discovery> =>
  Effect.runPromise(discoverSkillFiles(sources, options).pipe(Effect.provide(NodeFileSystemAndPath)))

/**
 * {@link load} on the local file system, for callers without an Effect runtime. Never rejects and
 * never writes to stdout or stderr: a host speaking a protocol there stays intact.
 */
export const loadSkills = (sources: ReadonlyArray<SkillSource>, options: LoadSkillsOptions = {}): Promise<LoadReport> => {
  const { logger, ...loadOptions } = options
  return Effect.runPromise(load(sources, loadOptions).pipe(Effect.provide(Layer.mergeAll(NodeFileSystemAndPath, warningsTo(logger)))))
}
