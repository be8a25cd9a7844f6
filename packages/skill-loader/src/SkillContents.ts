import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import { Effect, FileSystem, Layer, Path, Schema } from "effect"
import type { SkillInfo } from "./SkillInfo.js"

/** A file a skill ships beside its SKILL.md: its path relative to the skill's directory (POSIX) and its size. */
export const SkillFileEntry = Schema.Struct({ path: Schema.String, bytes: Schema.Number })
export type SkillFileEntry = typeof SkillFileEntry.Type

/** What a model reads of a skill: its body and the files it may refer to, listed but not read. */
export const SkillContents = Schema.Struct({
  name: Schema.String,
  description: Schema.String,
  location: Schema.String,
  baseDirectory: Schema.String,
  body: Schema.String,
  files: Schema.Array(SkillFileEntry),
  /** Set when the listing stopped at `maxFiles`, `maxDepth` or `maxDirectories` before the directory was walked. */
  truncated: Schema.Boolean
})
export type SkillContents = typeof SkillContents.Type

export interface ReadSkillOptions {
  /** The most files listed (default 200). */
  readonly maxFiles?: number | undefined
  /** How many directories deep below the skill's own the listing goes (default 4). */
  readonly maxDepth?: number | undefined
  /** The most directories read, the skill's own included (default 100): a tree of empty folders costs no more. */
  readonly maxDirectories?: number | undefined
}

/** Names a listing passes over: version-control and dependency folders, and hidden entries. */
const isSkipped = (name: string): boolean => name.startsWith(".") || name === "node_modules"

/**
 * A loaded skill's body and the files under its directory, breadth first and sorted by name at each
 * level, without following symbolic links to directories (a link is listed, not walked). A directory
 * that cannot be read is left out; the listing never fails.
 */
export const read = Effect.fn("readSkill")(function* (skill: SkillInfo, options: ReadSkillOptions = {}) {
  const fs = yield* FileSystem.FileSystem
  const path = yield* Path.Path
  const maxFiles = options.maxFiles ?? 200
  const maxDepth = options.maxDepth ?? 4
  const maxDirectories = options.maxDirectories ?? 100
  const files: Array<SkillFileEntry> = []
  let truncated = false
  let directoriesRead = 0
  let level: ReadonlyArray<string> = [""]
  for (let depth = 0; level.length > 0 && !truncated; depth++) {
    const next: Array<string> = []
    for (const directory of level) {
      if (directoriesRead >= maxDirectories) {
        truncated = true
        break
      }
      directoriesRead++
      const names = yield* fs.readDirectory(path.join(skill.baseDirectory, directory)).pipe(Effect.orElseSucceed((): ReadonlyArray<string> => []))
      for (const name of names.toSorted()) {
        if (isSkipped(name)) continue
        const relative = directory === "" ? name : `${directory}/${name}`
        if (relative === "SKILL.md") continue
        const absolute = path.join(skill.baseDirectory, relative)
        const link = yield* fs.readLink(absolute).pipe(Effect.option)
        const info = yield* fs.stat(absolute).pipe(Effect.option)
        if (info._tag === "None") continue
        if (info.value.type === "Directory" && link._tag === "None") {
          if (depth < maxDepth) next.push(relative)
          else truncated = true
          continue
        }
        if (files.length >= maxFiles) {
          truncated = true
          break
        }
        files.push({ path: relative, bytes: Number(info.value.size) })
      }
      if (truncated && files.length >= maxFiles) break
    }
    level = next
  }
  const contents: SkillContents = {
    name: skill.name,
    description: skill.description,
    location: skill.location,
    baseDirectory: skill.baseDirectory,
    body: skill.body,
    files,
    truncated
  }
  return contents
})

/** {@link read} on the local file system, for callers without an Effect runtime; it never rejects. */
export const readSkill = (skill: SkillInfo, options: ReadSkillOptions = {}): Promise<SkillContents> =>
  Effect.runPromise(read(skill, options).pipe(Effect.provide(Layer.mergeAll(NodeFileSystem.layer, NodePath.layer))))
