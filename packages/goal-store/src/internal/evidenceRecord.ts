import { mkdir, open } from "node:fs/promises"
import { dirname, join } from "node:path"
import type { Evidence } from "../Goal.js"
import { fsyncDirectory } from "../Snapshot.js"

/** The relative path an evidence record is filed under: per criterion, per attempt. */
export const evidencePath = (evidence: Pick<Evidence, "criterionId" | "attempt" | "id">): string =>
  join("evidence", evidence.criterionId, `attempt-${evidence.attempt}`, `${evidence.id}.json`)

/**
 * Writes an evidence record durably: the file fsynced, then its directory and every directory this
 * write created (each one's parent), so that the record survives a crash once this resolves. The
 * fsyncs run off the event loop.
 */
export const writeEvidenceRecord = async (directory: string, evidence: Evidence): Promise<void> => {
  const file = join(directory, evidencePath(evidence))
  const folder = dirname(file)
  const created = await mkdir(folder, { recursive: true })
  const handle = await open(file, "w")
  try {
    await handle.write(`${JSON.stringify(evidence, null, 2)}\n`)
    await handle.sync()
  } finally {
    await handle.close()
  }
  const first = created === undefined ? folder : dirname(created)
  for (let current = folder; ; current = dirname(current)) {
    await fsyncDirectory(current)
    if (current === first || dirname(current) === current) break
  }
}
