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

const rpcError = (id: unknown, code: number, message: string) =>
  `${JSON.stringify({ jsonrpc: "2.0", id: typeof id === "string" || typeof id === "number" ? id : null, error: { code, message } })}\n`

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)

/** Requests a client may send before its `initialize` has been answered. */
const BEFORE_INITIALIZE: ReadonlySet<unknown> = new Set(["initialize", "ping"])

/**
 * What the server makes of one line: passed on, or answered here with the JSON-RPC error that
 * names what is wrong — a line that is not JSON (-32700), a JSON object that is neither a request,
 * a notification nor a response (-32600), a request other than `initialize` or `ping` before the
 * first `initialize` (-32600). Batches (arrays) are passed on for the server to refuse.
 */
const lineVerdict = (
  line: Uint8Array,
  initialized: boolean
): { readonly pass: true; readonly initializes: boolean } | { readonly pass: false; readonly answer: string } => {
  let message: unknown
  try {
    message = JSON.parse(decoder.decode(line))
  } catch {
    return { pass: false, answer: rpcError(null, -32700, "Parse error: the line is not JSON") }
  }
  if (Array.isArray(message)) return { pass: true, initializes: false }
  if (!isRecord(message) || message["jsonrpc"] !== "2.0") {
    return { pass: false, answer: rpcError(isRecord(message) ? message["id"] : null, -32600, 'Invalid Request: a message is a JSON object with "jsonrpc": "2.0"') }
  }
  const method = message["method"]
  const isResponse = method === undefined && "id" in message && ("result" in message || "error" in message)
  if (!isResponse && typeof method !== "string") {
    return { pass: false, answer: rpcError(message["id"], -32600, 'Invalid Request: a request or notification names its "method" as a string') }
  }
  if (!initialized && "id" in message && typeof method === "string" && !BEFORE_INITIALIZE.has(method)) {
    return { pass: false, answer: rpcError(message["id"], -32600, `Invalid Request: ${JSON.stringify(method.slice(0, 100))} before initialize; send initialize first`) }
  }
  return { pass: true, initializes: method === "initialize" && "id" in message }
}

/**
 * Standard input as the MCP server may read it: whole lines, each a JSON-RPC message, each at most
 * `maxLineBytes`. A line the server could not take (see `lineVerdict`: not JSON, not UTF-8, not a
 * JSON-RPC message, a request before `initialize`) is answered here with the error that says so and
 * dropped — the server's own reader would stop at it or answer it vaguely — and a line longer than the cap
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
        let initialized = false
        const answers: Array<string> = []
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
            const verdict = lineVerdict(line, initialized)
            if (!verdict.pass) {
              answers.push(verdict.answer)
              continue
            }
            initialized ||= verdict.initializes
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
              const valid = lines(chunk)
              const refusals = answers.splice(0)
              return refusals.length === 0 ? Effect.succeed(valid) : Effect.as(answer(refusals.join("")), valid)
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
