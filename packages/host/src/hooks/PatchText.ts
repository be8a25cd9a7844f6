import type { EditedFile } from "./EditedFile.js"

const FILE_HEADER = /^\*\*\* (Add File|Update File|Delete File|Move to): (.*)$/u

/**
 * What a patch in the `*** Begin Patch` format (Codex's `apply_patch`, OpenCode's patch tools)
 * changes, file by file in order, at most `maxFiles` files: an added file's lines as its new text;
 * for an updated file, each hunk's new side (context and `+` lines) and old side (context and `-`
 * lines); a deleted file by name only. A move names the file under its new path.
 */
export const patchEdits = (patch: string, maxFiles: number): ReadonlyArray<EditedFile> => {
  const edits: Array<EditedFile> = []
  const files = new Set<string>()
  let file: string | undefined
  let after: Array<string> = []
  let before: Array<string> = []
  let added = false
  const named = new Set<string>()
  const flush = () => {
    if (file !== undefined && (after.length > 0 || before.length > 0)) {
      edits.push(added ? { file, after: after.join("\n") } : { file, after: after.join("\n"), before: before.join("\n") })
      named.add(file)
    }
    after = []
    before = []
  }
  /** A file whose section changed no line it shows (an empty addition, a bare rename) is still named. */
  const close = () => {
    flush()
    if (file !== undefined && !named.has(file)) {
      edits.push({ file })
      named.add(file)
    }
  }
  for (const line of patch.split(/\r?\n/u)) {
    const header = FILE_HEADER.exec(line)
    if (header !== null) {
      const [, kind, given = ""] = header
      const path = given.trim()
      if (kind === "Move to") {
        // The hunks that follow apply under the new path; the old one is named as changed too.
        if (file !== undefined && path !== "") {
          close()
          file = path
          files.add(path)
        }
        continue
      }
      close()
      if (path === "" || (!files.has(path) && files.size >= maxFiles)) {
        file = undefined
        continue
      }
      files.add(path)
      file = path
      added = kind === "Add File"
      continue
    }
    if (file === undefined) continue
    if (line.startsWith("@@")) flush()
    else if (line.startsWith("+")) after.push(line.slice(1))
    else if (line.startsWith("-")) before.push(line.slice(1))
    else if (line.startsWith(" ")) {
      after.push(line.slice(1))
      before.push(line.slice(1))
    }
  }
  close()
  return edits
}
