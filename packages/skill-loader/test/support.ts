import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import { Effect, Layer, Logger } from "effect"
import { afterEach } from "vitest"

export const NodeLayer = Layer.mergeAll(NodeFileSystem.layer, NodePath.layer)

const temporaryDirectories: Array<string> = []
afterEach(() => {
  for (const directory of temporaryDirectories.splice(0)) rmSync(directory, { recursive: true, force: true })
})

/** A fresh directory removed after the test. */
export const temporaryDirectory = (): string => {
  const directory = mkdtempSync(join(tmpdir(), "skill-loader-test-"))
  temporaryDirectories.push(directory)
  return directory
}

/** Writes each `relative path → content` under `root`, creating directories as needed. */
export const writeTree = (root: string, files: Readonly<Record<string, string | Uint8Array>>): void => {
  for (const [relative, content] of Object.entries(files)) {
    const file = join(root, relative)
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, content)
  }
}

/** A minimal valid SKILL.md, with extra frontmatter lines and a body. */
export const skill = (name: string, extra = "", body = `# ${name}\n`): string =>
  `---\nname: ${name}\ndescription: The ${name} skill.\n${extra}---\n${body}`

export interface LogLine {
  readonly level: string
  readonly text: string
}

/** Runs `effect` with a logger that records every log line's level and text, and returns both. */
export const withCapturedLogs = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<readonly [A, ReadonlyArray<LogLine>], E, R> => {
  const lines: Array<LogLine> = []
  const logger = Logger.make(({ logLevel, message }) => {
    lines.push({ level: logLevel, text: (Array.isArray(message) ? message : [message]).map(String).join(" ") })
  })
  return effect.pipe(
    Effect.provide(Logger.layer([logger])),
    Effect.map((value) => [value, lines] as const)
  )
}
