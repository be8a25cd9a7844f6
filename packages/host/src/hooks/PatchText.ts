const PATCH_FILE_LINE = /^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+)$/gm

/**
 * The files a patch in the `*** Begin Patch` format (Codex's `apply_patch`, OpenCode's patch tools)
 * adds, updates, moves or deletes, in order, each once, at most `max` of them.
 */
export const patchedFiles = (patch: string, max: number): ReadonlyArray<string> => {
  const files = new Set<string>()
  for (const match of patch.matchAll(PATCH_FILE_LINE)) {
    if (files.size >= max) break
    const file = match[1]?.trim()
    if (file !== undefined && file !== "") files.add(file)
  }
  return [...files]
}
