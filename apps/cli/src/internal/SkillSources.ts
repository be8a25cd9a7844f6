import { resolve } from "node:path"
import { DEFAULT_SKILL_ROOTS_TEXT } from "@armory/host/hooks"
import { Effect, FileSystem } from "effect"
import { Flag } from "effect/cli"
import { invalidUsage } from "./CommandFailed.js"

/** `--dir D` (repeatable): skill roots, earlier wins on a name clash. */
export const dirsFlag = Flag.String("dir").pipe(
  Flag.atLeast(0),
  Flag.withDescription(`a skills directory or SKILL.md file (repeatable; earlier wins on a name clash). Default: ${DEFAULT_SKILL_ROOTS_TEXT}`)
)

/** A `--dir` the user named that is not there is a usage error, not an empty catalog. */
export const checkSkillDirs = Effect.fn("checkSkillDirs")(function* (dirs: ReadonlyArray<string>) {
  const fs = yield* FileSystem.FileSystem
  for (const dir of dirs) {
    const exists = yield* fs.exists(resolve(dir)).pipe(Effect.orElseSucceed(() => false))
    if (!exists) return yield* invalidUsage(`--dir ${dir}: no such file or directory (${resolve(dir)})`)
  }
})
