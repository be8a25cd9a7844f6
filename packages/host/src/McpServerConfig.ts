import { Data, Effect, FileSystem, Result, Schema } from "effect"

/** A server started as a child process speaking MCP on its stdin and stdout. */
export const McpStdioServer = Schema.Struct({
  type: Schema.optionalKey(Schema.Literal("stdio")),
  command: Schema.String.check(Schema.isMinLength(1)),
  args: Schema.optionalKey(Schema.Array(Schema.String)),
  /** The only variables the server gets, besides `PATH` (so that its command and interpreter are found). */
  env: Schema.optionalKey(Schema.Record(Schema.String, Schema.String)),
  cwd: Schema.optionalKey(Schema.String)
})
export type McpStdioServer = typeof McpStdioServer.Type

/** A server reached over Streamable HTTP. */
export const McpHttpServer = Schema.Struct({
  type: Schema.optionalKey(Schema.Literals(["http", "streamable-http"])),
  url: Schema.String.check(Schema.makeFilter((url: string) => URL.canParse(url) && /^https?:$/.test(new URL(url).protocol), { expected: "an http or https URL" })),
  headers: Schema.optionalKey(Schema.Record(Schema.String, Schema.String))
})
export type McpHttpServer = typeof McpHttpServer.Type

export const McpServerConfig = Schema.Union([McpStdioServer, McpHttpServer])
export type McpServerConfig = typeof McpServerConfig.Type

/** The servers of a `.mcp.json`-style file, by name, in the file's order. */
export const McpServersFile = Schema.Struct({ mcpServers: Schema.Record(Schema.String, McpServerConfig) })
export type McpServers = Readonly<Record<string, McpServerConfig>>

/** A configuration that cannot be used, and why. */
export class InvalidMcpConfig extends Schema.TaggedError<InvalidMcpConfig>()("InvalidMcpConfig", { file: Schema.String, reason: Schema.String }) {
  override get message(): string {
    return `${this.file}: ${this.reason}`
  }
}

/** Bounds on a configuration file: a real one names a handful of servers in a few kilobytes. */
export const MAX_MCP_CONFIG_BYTES = 1024 * 1024
export const MAX_MCP_SERVERS = 64

const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g

/** A `${NAME}` with no value and no default, where it was written. */
class UnsetVariable extends Data.TaggedError("UnsetVariable")<{ readonly where: string; readonly name: string }> {}

type Environment = Readonly<Record<string, string | undefined>>

/**
 * `${NAME}` and `${NAME:-default}` replaced from `env`, as hosts expand them in `.mcp.json`: a
 * server is handed a secret by naming it, never by inheriting the host's environment.
 */
const expand = (text: string, env: Environment, where: string): string =>
  text.replace(VARIABLE, (_whole, name: string, fallback: string | undefined) => {
    const value = env[name]
    if (value !== undefined && value !== "") return value
    if (fallback !== undefined) return fallback
    throw new UnsetVariable({ where, name })
  })

const expandRecord = (record: Readonly<Record<string, string>>, env: Environment, where: string): Record<string, string> =>
  Object.fromEntries(Object.entries(record).map(([key, value]) => [key, expand(value, env, `${where}.${key}`)]))

const expandServer = (name: string, server: McpServerConfig, env: Environment): McpServerConfig => {
  const where = `mcpServers.${name}`
  if ("url" in server) {
    return {
      ...server,
      url: expand(server.url, env, `${where}.url`),
      ...(server.headers === undefined ? {} : { headers: expandRecord(server.headers, env, `${where}.headers`) })
    }
  }
  return {
    ...server,
    command: expand(server.command, env, `${where}.command`),
    ...(server.args === undefined ? {} : { args: server.args.map((arg, index) => expand(arg, env, `${where}.args[${index}]`)) }),
    ...(server.env === undefined ? {} : { env: expandRecord(server.env, env, `${where}.env`) })
  }
}

const decodeFile = Schema.decodeUnknownResult(McpServersFile, { errors: "all" })

/**
 * The servers a `.mcp.json`-style document names (`{ "mcpServers": { name: { command, args?, env?,
 * cwd? } | { url, headers? } } }`), with `${VAR}` and `${VAR:-default}` expanded from `env`. Fails
 * with {@link InvalidMcpConfig} naming what is wrong: not JSON, a field of the wrong type, an
 * unsupported transport (`sse`), a variable that is not set, more than 64 servers.
 */
export const parseMcpConfig = (
  text: string,
  options: { readonly file?: string; readonly env?: Readonly<Record<string, string | undefined>> } = {}
): Result.Result<McpServers, InvalidMcpConfig> => {
  const file = options.file ?? "MCP configuration"
  const invalid = (reason: string) => Result.fail(new InvalidMcpConfig({ file, reason }))
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    return invalid(`not JSON: ${error instanceof Error ? error.message : String(error)}`)
  }
  const servers = json !== null && typeof json === "object" ? (json as { mcpServers?: unknown }).mcpServers : undefined
  if (servers !== null && typeof servers === "object") {
    for (const [name, server] of Object.entries(servers)) {
      const type = server !== null && typeof server === "object" ? (server as { type?: unknown }).type : undefined
      if (type === "sse") return invalid(`mcpServers.${name}: the "sse" transport is not supported; use Streamable HTTP ("type": "http")`)
    }
  }
  const decoded = decodeFile(json)
  if (Result.isFailure(decoded)) return invalid(decoded.failure.message)
  const entries = Object.entries(decoded.success.mcpServers)
  if (entries.length > MAX_MCP_SERVERS) return invalid(`${entries.length} servers, more than the ${MAX_MCP_SERVERS} allowed`)
  try {
    return Result.succeed(Object.fromEntries(entries.map(([name, server]) => [name, expandServer(name, server, options.env ?? process.env)])))
  } catch (error) {
    if (error instanceof UnsetVariable) return invalid(`${error.where} names \${${error.name}}, which is not set and has no default`)
    throw error
  }
}

/** {@link parseMcpConfig} of a file, read only when it is a regular file within 1 MiB. */
export const readMcpConfig = Effect.fn("readMcpConfig")(function* (
  file: string,
  options: { readonly env?: Readonly<Record<string, string | undefined>> } = {}
) {
  const fs = yield* FileSystem.FileSystem
  const unreadable = (reason: string) => new InvalidMcpConfig({ file, reason: `unreadable: ${reason}` })
  const info = yield* fs.stat(file).pipe(Effect.mapError((error) => unreadable(error.message)))
  if (info.type !== "File") return yield* unreadable(`not a regular file (${info.type})`)
  const size = Number(info.size)
  if (size > MAX_MCP_CONFIG_BYTES) return yield* unreadable(`${size} bytes, over the ${MAX_MCP_CONFIG_BYTES}-byte limit`)
  const text = yield* fs.readFileString(file).pipe(Effect.mapError((error) => unreadable(error.message)))
  return yield* Effect.fromResult(parseMcpConfig(text, { file, ...options }))
})
