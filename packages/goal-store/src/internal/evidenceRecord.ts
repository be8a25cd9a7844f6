import { closeSync, fsyncSync, mkdirSync, openSync, writeSync } from "node:fs"
import { dirname, join } from "node:path"
import type { Evidence } from "../Goal.js"
import { fsyncDirectory } from "../Snapshot.js"

/** The relative path an evidence record is filed under: per criterion, per attempt. */
export const evidencePath = (evidence: Pick<Evidence, "criterionId" | "attempt" | "id">): string =>
  join("evidence", evidence.criterionId, `attempt-${evidence.attempt}`, `${evidence.id}.json`)

/**
 * Writes an evidence record durably: the file fsynced, then its directory and every directory this
 * write created (each one's parent), so that the record survives a crash once this returns.
 */
export const writeEvidenceRecord = (directory: string, evidence: Evidence): void => {
  const file = join(directory, evidencePath(evidence))
  const folder = dirname(file)
  const created = mkdirSync(folder, { recursive: true })
  const fd = openSync(file, "w")
  try {
    writeSync(fd, `${JSON.stringify(evidence, null, 2)}\n`)
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  const first = created === undefined ? folder : dirname(created)
  for (let current = folder; ; current = dirname(current)) {
    fsyncDirectory(current)
    if (current === first || dirname(current) === current) break
  }
}

