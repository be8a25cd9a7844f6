/** The most characters of a foreign value's description kept for a log line. */
const MAX_DESCRIPTION_CHARS = 4000

/** What one read of a value the host did not create gives, or undefined when the read throws (a getter, a Proxy trap, unbounded recursion). */
const readText = (read: () => unknown): string | undefined => {
  try {
    const value = read()
    return typeof value === "string" ? value : undefined
  } catch {
    return undefined
  }
}

/**
 * A value the host did not create — a tool's error or answer — as text for a log line: its stack,
 * else its name and message, else what `String` makes of it, whichever can be read. A getter, a
 * Proxy trap, `toString` or `Symbol.toPrimitive` that throws (or recurses without end) never
 * escapes: the value is described by what could be read, at most 4,000 characters.
 */
export const describeForeign = (value: unknown): string => {
  const isObject = (typeof value === "object" && value !== null) || typeof value === "function"
  const stack = isObject ? readText(() => Reflect.get(value, "stack")) : undefined
  const name = isObject ? readText(() => Reflect.get(value, "name")) : undefined
  const message = isObject ? readText(() => Reflect.get(value, "message")) : undefined
  const labelled = name === undefined && message === undefined ? undefined : [name, message].filter((part) => part !== undefined).join(": ")
  const text = stack ?? labelled ?? readText(() => String(value)) ?? "a value that could not be read"
  return text.length <= MAX_DESCRIPTION_CHARS ? text : `${text.slice(0, MAX_DESCRIPTION_CHARS)}…`
}
