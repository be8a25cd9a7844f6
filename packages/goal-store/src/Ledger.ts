import { closeSync, fsyncSync, openSync, writeSync } from "node:fs"
import { Result, Schema } from "effect"
import { MalformedState } from "./Errors.js"
import { canonicalJson } from "./internal/canonicalJson.js"
import { isExactLedgerEvent } from "./internal/ledgerEventCheck.js"
import { LEDGER_EVENT_BY_KIND, LEDGER_SCHEMA, type LedgerEvent, type LedgerEventKind } from "./LedgerEvent.js"
import { LEDGER_FILE } from "./SessionFiles.js"

/** `ledger.jsonl` is the source of truth: one canonical JSON line per event, appended and fsynced. */
export { LEDGER_FILE }
/** Where uncommitted (torn) tails go before a writer truncates them away: kept, never deleted. */
export const LEDGER_QUARANTINE_FILE = "ledger.quarantine"

const NEWLINE = 0x0a

const decoders = Object.fromEntries(
  Object.entries(LEDGER_EVENT_BY_KIND).map(([kind, schema]) => [kind, Schema.decodeUnknownResult(schema)])
) as { readonly [K in LedgerEventKind]: (input: unknown) => Result.Result<unknown, Schema.SchemaError> }

const isKind = (kind: unknown): kind is LedgerEventKind => typeof kind === "string" && Object.hasOwn(LEDGER_EVENT_BY_KIND, kind)

/** Decodes one ledger line; the failure is a human reason. */
export const decodeLedgerLine = (line: string): Result.Result<LedgerEvent, string> => {
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch (error) {
    return Result.fail(`not JSON: ${error instanceof Error ? error.message : String(error)}`)
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return Result.fail("not a JSON object")
  const record = value as { readonly schema?: unknown; readonly kind?: unknown }
  if (record.schema !== LEDGER_SCHEMA) return Result.fail(`schema is ${JSON.stringify(record.schema)}, expected "${LEDGER_SCHEMA}"`)
  if (!isKind(record.kind)) return Result.fail(`unknown event kind ${JSON.stringify(record.kind)}`)
  if (isExactLedgerEvent(value)) return Result.succeed(value)
  const decoded = decoders[record.kind](value)
  return Result.isSuccess(decoded)
    ? Result.succeed(decoded.success as LedgerEvent)
    : Result.fail(`${record.kind} event rejected: ${decoded.failure.message.replace(/\s+/g, " ")}`)
}

export const encodeLedgerLine = (event: LedgerEvent): string => `${canonicalJson(event)}\n`

/** The committed part of a ledger (whole lines) and what follows the last newline, if anything. */
export interface LedgerScan {
  readonly events: ReadonlyArray<LedgerEvent>
  /** Bytes of the file up to and including the last newline, counted from its start. */
  readonly committedBytes: number
  /** Bytes after the last newline: a write that never completed, treated as uncommitted. */
  readonly tornBytes: number
}

/**
 * Reads complete lines of ledger bytes as events, each continuing the sequence; the first line that
 * does not decode or follow stops it, as `broken`. Every reader of ledger bytes goes through it.
 */
export class LedgerLineReader {
  broken: MalformedState | undefined = undefined
  constructor(
    private readonly bytes: Buffer,
    private readonly file: string,
    /** Index in `bytes` after the last line read. */
    public end: number,
    /** The number of the next line. */
    public line: number,
    public seq: number
  ) {}

  next(): LedgerEvent | undefined {
    if (this.broken !== undefined) return undefined
    const newline = this.bytes.indexOf(NEWLINE, this.end)
    if (newline === -1) return undefined
    const decoded = decodeLedgerLine(this.bytes.toString("utf8", this.end, newline))
    if (Result.isFailure(decoded)) {
      this.broken = new MalformedState({ file: this.file, line: this.line, reason: decoded.failure })
      return undefined
    }
    const event = decoded.success
    if (event.seq !== this.seq + 1) {
      this.broken = new MalformedState({ file: this.file, line: this.line, reason: `sequence ${event.seq} does not follow ${this.seq}` })
      return undefined
    }
    this.seq = event.seq
    this.end = newline + 1
    this.line += 1
    return event
  }
}

/**
 * Parses ledger bytes that start at `offset` in the file, after `previousSeq` events. Every complete
 * line must decode and continue the sequence; a torn last line is left out. Line numbers in the
 * failure are 1-based and absolute when `firstLine` is the line at `offset`.
 */
export const scanLedger = (
  bytes: Uint8Array,
  file: string,
  options: { readonly offset?: number; readonly previousSeq?: number; readonly firstLine?: number } = {}
): Result.Result<LedgerScan, MalformedState> => {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const reader = new LedgerLineReader(buffer, file, 0, options.firstLine ?? 1, options.previousSeq ?? 0)
  const events: Array<LedgerEvent> = []
  for (let event = reader.next(); event !== undefined; event = reader.next()) events.push(event)
  if (reader.broken !== undefined) return Result.fail(reader.broken)
  return Result.succeed({ events, committedBytes: (options.offset ?? 0) + reader.end, tornBytes: buffer.length - reader.end })
}

/** Appends bytes to a side file and fsyncs it, so nothing quarantined is lost. */
export const appendDurably = (path: string, bytes: Uint8Array): void => {
  const fd = openSync(path, "a")
  try {
    writeSync(fd, bytes)
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}
