/**
 * JSON that the host reads or writes on a guest's behalf, bounded: nesting at most `maxDepth`
 * levels, text at most `maxBytes` bytes. Depth is measured without recursion, so a value nested
 * 100,000 levels deep costs a walk, not the host's stack.
 */
export interface JsonBounds {
  readonly maxDepth: number
  readonly maxBytes: number
}

/** How deep `value` nests, walking at most `limit + 1` levels (deeper answers `limit + 1`). */
export const nestingDepth = (value: unknown, limit: number): number => {
  let deepest = 0
  const stack: Array<readonly [unknown, number]> = [[value, 0]]
  const seen = new Set<object>()
  while (stack.length > 0) {
    const [item, depth] = stack.pop() as readonly [unknown, number]
    if (typeof item !== "object" || item === null || seen.has(item)) continue
    seen.add(item)
    const level = depth + 1
    if (level > deepest) deepest = level
    if (deepest > limit) return deepest
    for (const child of Array.isArray(item) ? item : Object.values(item)) stack.push([child, level])
  }
  return deepest
}

/** Why a value cannot be encoded within `bounds`, or its JSON text. */
export const encodeBounded = (value: unknown, bounds: JsonBounds): { readonly json: string } | { readonly refused: string } => {
  if (nestingDepth(value, bounds.maxDepth) > bounds.maxDepth) return { refused: `it nests deeper than ${bounds.maxDepth} levels` }
  let json: string | undefined
  try {
    json = JSON.stringify(value)
  } catch (error) {
    return { refused: `it is not JSON: ${error instanceof Error ? error.message : String(error)}` }
  }
  if (json === undefined) return { refused: "it is not JSON" }
  return Buffer.byteLength(json, "utf8") > bounds.maxBytes ? { refused: `its JSON is over ${bounds.maxBytes} bytes` } : { json }
}

/**
 * Parses JSON text from the guest: refused when over `maxBytes` (before parsing) or nested deeper
 * than `maxDepth`; own `__proto__` keys, which `JSON.parse` creates as ordinary properties, are
 * dropped so that no tool ever receives one.
 */
export const decodeBounded = (text: string, bounds: JsonBounds): { readonly value: unknown } | { readonly refused: string } => {
  const bytes = Buffer.byteLength(text, "utf8")
  if (bytes > bounds.maxBytes) return { refused: `the input is ${bytes} bytes of JSON, over the ${bounds.maxBytes}-byte limit` }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return { refused: "the input is not JSON" }
  }
  if (nestingDepth(value, bounds.maxDepth) > bounds.maxDepth) return { refused: `the input nests deeper than ${bounds.maxDepth} levels` }
  dropProtoKeys(value)
  return { value }
}

/** Removes every own `__proto__` key of a parsed value (a reviver would recurse; this walks). */
const dropProtoKeys = (value: unknown): void => {
  const stack: Array<unknown> = [value]
  while (stack.length > 0) {
    const item = stack.pop()
    if (typeof item !== "object" || item === null) continue
    if (Object.hasOwn(item, "__proto__")) Reflect.deleteProperty(item, "__proto__")
    for (const child of Array.isArray(item) ? item : Object.values(item)) stack.push(child)
  }
}
