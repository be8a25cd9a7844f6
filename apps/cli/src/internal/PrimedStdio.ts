import { Effect, Layer, Sink, Stdio, Stream } from "effect"

/** What `armory mcp` read from stdin before the server loaded, and the request it answered itself. */
export interface Primed {
  /** The bytes already taken from stdin, given to the server first. */
  readonly bytes: Uint8Array
  /** The id of the `initialize` request already answered: the server's own answer to it is not written again. */
  readonly answeredId?: string | number | undefined
}

const decoder = new TextDecoder()

const answers = (line: string, id: string | number): boolean => {
  try {
    const message: unknown = JSON.parse(line)
    return typeof message === "object" && message !== null && "id" in message && message.id === id && ("result" in message || "error" in message)
  } catch {
    return false
  }
}

/**
 * Standard input and output as the server sees them after a fast start: stdin begins with what was
 * already read, and the one answer already given is held back from stdout. Until it has passed,
 * output is let through a whole line at a time; after it, untouched.
 */
export const primedStdio = (primed: Primed) =>
  Layer.effect(
    Stdio.Stdio,
    Effect.map(Stdio.Stdio, (stdio) => {
      let held = primed.answeredId === undefined
      let pending = ""
      const pass = (chunk: string | Uint8Array): string | Uint8Array => {
        if (held) return chunk
        pending += typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true })
        const end = pending.lastIndexOf("\n")
        if (end === -1) return ""
        const lines = pending.slice(0, end + 1).split(/(?<=\n)/)
        pending = pending.slice(end + 1)
        const kept = lines.filter((line) => {
          if (held || !answers(line, primed.answeredId ?? "")) return true
          held = true
          return false
        })
        const out = kept.join("")
        return held ? `${out}${pending}` : out
      }
      return Stdio.make({
        args: stdio.args,
        stdin: Stream.concat(Stream.make(primed.bytes), stdio.stdin),
        stdout: (options) => Sink.mapInput(stdio.stdout(options), pass),
        stderr: stdio.stderr
      })
    })
  )
