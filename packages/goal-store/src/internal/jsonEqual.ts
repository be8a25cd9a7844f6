type JsonRecord = { readonly [key: string]: unknown }

const definedKeys = (record: JsonRecord): number => {
  let count = 0
  for (const key in record) if (record[key] !== undefined) count++
  return count
}

/**
 * Whether two JSON values are equal as data: what `canonicalJson(a) === canonicalJson(b)` answers
 * for plain data (properties holding `undefined` count as absent), without encoding either side —
 * checking a snapshot against the ledger's fold on every open stays cheap for large goals.
 */
export const jsonEqual = (a: unknown, b: unknown): boolean => {
  if (a === b) return true
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false
    for (let index = 0; index < a.length; index++) if (!jsonEqual(a[index], b[index])) return false
    return true
  }
  if (Array.isArray(b)) return false
  const left = a as JsonRecord
  const right = b as JsonRecord
  for (const key in left) {
    const value = left[key]
    if (value === undefined) continue
    if (!Object.hasOwn(right, key) || !jsonEqual(value, right[key])) return false
  }
  return definedKeys(left) === definedKeys(right)
}
