import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { gunzipSync } from "node:zlib"

/** One public collection's sampled SKILL.md files, as `build.mjs` took them at `commit`. */
export interface Collection {
  readonly repo: string
  readonly commit: string
  readonly license: string
  readonly files: ReadonlyArray<{ readonly path: string; readonly text: string }>
}

export const readCollections = (): ReadonlyArray<Collection> =>
  (JSON.parse(gunzipSync(readFileSync(new URL("./skills.json.gz", import.meta.url))).toString("utf8")) as { collections: Array<Collection> })
    .collections

/** Writes every collection under `root`, one directory each (`owner+name`), and returns those directories in order. */
export const writeCollections = (root: string, collections: ReadonlyArray<Collection> = readCollections()): ReadonlyArray<string> =>
  collections.map(({ repo, files }) => {
    const directory = join(root, repo.replace("/", "+"))
    for (const { path, text } of files) {
      const file = join(directory, path)
      mkdirSync(dirname(file), { recursive: true })
      writeFileSync(file, text)
    }
    return directory
  })
