type JsonRecord = { readonly [key: string]: unknown }

const hasToJson = (value: object): value is { toJSON: (key: string) => unknown } =>
  typeof (value as { readonly toJSON?: unknown }).toJSON === "function"

const MAX_ARRAY_INDEX = 4_294_967_294

/** Whether a property name is an array index, which JavaScript enumerates first, in numeric order. */
const isArrayIndex = (name: string): boolean => {
  const first = name.charCodeAt(0)
  if (first < 0x30 || first > 0x39 || (first === 0x30 && name.length > 1)) return false
  for (let index = 1; index < name.length; index++) {
    const code = name.charCodeAt(index)
    if (code < 0x30 || code > 0x39) return false
  }
  return Number(name) <= MAX_ARRAY_INDEX
}

/**
 * The property order of a copy made by inserting the keys sorted: array indices first in numeric
 * order (as `Object.keys` already lists them), then the other keys in UTF-16 code-unit order.
 */
const orderedKeys = (record: JsonRecord): ReadonlyArray<string> => {
  const keys = Object.keys(record)
  let indices = 0
  while (indices < keys.length && isArrayIndex(keys[indices] as string)) indices++
  return indices === 0 ? keys.toSorted() : [...keys.slice(0, indices), ...keys.slice(indices).toSorted()]
}

/**
 * One value as `JSON.stringify` writes it, object keys sorted; `undefined` where `JSON.stringify`
 * leaves the value out (an `undefined` or function property). Written by hand rather than as a
 * `JSON.stringify` replacer because a replacer has to copy every object to re-order it, which made
 * encoding the largest CPU cost of a snapshot write.
 */
const encode = (key: string, input: unknown): string | undefined => {
  const value = input !== null && typeof input === "object" && hasToJson(input) ? input.toJSON(key) : input
  if (value === null || typeof value !== "object") return JSON.stringify(value)
  if (Array.isArray(value)) {
    let text = "["
    for (let index = 0; index < value.length; index++) {
      if (index > 0) text += ","
      text += encode(String(index), value[index]) ?? "null"
    }
    return `${text}]`
  }
  const record = value as JsonRecord
  let text = "{"
  let first = true
  for (const name of orderedKeys(record)) {
    const encoded = encode(name, record[name])
    if (encoded === undefined) continue
    text += `${first ? "" : ","}${JSON.stringify(name)}:${encoded}`
    first = false
  }
  return `${text}}`
}

/**
 * JSON with every object's keys in UTF-16 code-unit order, so equal values always serialise to equal
 * bytes: a snapshot rebuilt from the ledger is byte-for-byte the snapshot that was written. The
 * output is exactly `JSON.stringify` of a copy of the value with each object's keys inserted sorted.
 */
export const canonicalJson = (value: unknown): string => {
  const text = encode("", value)
  if (text === undefined) throw new TypeError(`${typeof value} has no JSON form`)
  return text
}
