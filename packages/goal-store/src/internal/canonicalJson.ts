const sortKeys = (_key: string, value: unknown): unknown => {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value
  const sorted: Record<string, unknown> = {}
  for (const key of Object.keys(value).toSorted()) sorted[key] = (value as Record<string, unknown>)[key]
  return sorted
}

/**
 * JSON with every object's keys in code-point order, so equal values always serialise to equal
 * bytes: a snapshot rebuilt from the ledger is byte-for-byte the snapshot that was written.
 */
export const canonicalJson = (value: unknown): string => JSON.stringify(value, sortKeys)
