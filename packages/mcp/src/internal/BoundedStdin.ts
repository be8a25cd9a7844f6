import { Effect, Layer, Stdio, Stream } from "effect"

const NEWLINE = 10
const encoder = new TextEncoder()
const decoder = new TextDecoder("utf-8", { fatal: true })

const concatenated = (pieces: ReadonlyArray<Uint8Array>, bytes: number): Uint8Array => {
  const whole = new Uint8Array(bytes)
  let offset = 0
  for (const piece of pieces) {
    whole.set(piece, offset)
    offset += piece.length
  }
  return whole
}

/** Whether a line is a JSON value: the only thing a newline-delimited JSON-RPC peer may send. */
const isJson = (line: Uint8Array): boolean => {
  try {
    JSON.parse(decoder.decode(line))
    return true
  } catch {
    return false
  }
}

const parseError = (reason: string) => `${JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32700, message: `Parse error: ${reason}` } })}\n`

/**
 * Standard input as the MCP server may read it: whole lines, each a JSON value, each at most
 * `maxLineBytes`. A line that is not JSON (or not UTF-8) is answered with a JSON-RPC parse error
 * and dropped — the server's own reader would stop reading at it — and a line longer than the cap
 * ends the input there (the server stops as at the end of input, and says why) instead of being
 * buffered whole, however much of it the other side sends.
 */
export const boundedStdin = (maxLineBytes: number) =>
  Layer.effect(
    Stdio.Stdio,
    Effect.gen(function* () {
      const stdio = yield* Stdio.Stdio
      const answer = (text: string) => Stream.run(Stream.make(encoder.encode(text)), stdio.stdout({ endOnDone: false })).pipe(Effect.ignore)
      const stdin = Stream.suspend(() => {
        let carry: Array<Uint8Array> = []
        let carryBytes = 0
        let oversize = false
        let rejected = 0
        /** The complete, valid lines of a chunk, newline-terminated; the start of an unfinished line is kept for the next chunk. */
        const lines = (chunk: Uint8Array): Uint8Array => {
          const valid: Array<Uint8Array> = []
          let validBytes = 0
          let start = 0
          for (let newline = chunk.indexOf(NEWLINE); newline !== -1 && !oversize; newline = chunk.indexOf(NEWLINE, start)) {
            const piece = chunk.subarray(start, newline)
            start = newline + 1
            if (carryBytes + piece.length > maxLineBytes) {
              oversize = true
              break
            }
            const line = concatenated([...carry, piece], carryBytes + piece.length)
            carry = []
            carryBytes = 0
            if (line.every((byte) => byte === 32 || byte === 9 || byte === 13)) continue
            if (!isJson(line)) {
              rejected++
              continue
            }
            valid.push(line, Uint8Array.of(NEWLINE))
            validBytes += line.length + 1
          }
          if (!oversize) {
            const rest = chunk.subarray(start)
            if (carryBytes + rest.length > maxLineBytes) oversize = true
            else if (rest.length > 0) {
              carry.push(rest.slice())
              carryBytes += rest.length
            }
          }
          return concatenated(valid, validBytes)
        }
        return stdio.stdin.pipe(
          Stream.mapEffect((chunk) =>
            Effect.suspend(() => {
              const before = rejected
              const valid = lines(chunk)
              const refusals = rejected - before
              return refusals === 0 ? Effect.succeed(valid) : Effect.as(answer(parseError("the line is not JSON").repeat(refusals)), valid)
            })
          ),
          Stream.takeUntil(() => oversize),
          Stream.filter((valid) => valid.length > 0),
          Stream.onEnd(
            Effect.suspend(() => (oversize ? Effect.logError(`a message on stdin is over the ${maxLineBytes}-byte limit; the server stops reading`) : Effect.void))
          )
        )
      })
      return Stdio.make({ args: stdio.args, stdout: stdio.stdout, stderr: stdio.stderr, stdin })
    })
  )
