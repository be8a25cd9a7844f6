/**
 * What the server answers to `initialize`, without Effect: a host waits on this answer before it
 * offers the model any tool, so `armory mcp` gives it before the rest of the server has loaded
 * (`initializeAnswer`). The server built on effect/ai answers the same, from the same tables; a
 * test holds the two to each other.
 */

/** The name the server gives in `initialize`. */
export const MCP_SERVER_NAME = "armory"

/** The MCP revisions the server speaks, newest first; a client that offers another one gets the newest. */
export const MCP_PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const
export type McpProtocolVersion = (typeof MCP_PROTOCOL_VERSIONS)[number]

/** The capabilities the server declares in every revision: what its tools, resources and handlers make of it. */
const CAPABILITIES = { logging: {}, resources: { subscribe: true, listChanged: true }, tools: { listChanged: true } } as const

/** The revisions that know `completions` (it came with 2025-03-26). */
const WITH_COMPLETIONS: ReadonlySet<McpProtocolVersion> = new Set(["2025-11-25", "2025-06-18", "2025-03-26"])

/** The capabilities the server declares to a client of revision `version`. */
export const mcpServerCapabilities = (version: McpProtocolVersion) => (WITH_COMPLETIONS.has(version) ? { ...CAPABILITIES, completions: {} } : CAPABILITIES)

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)

/** The revision answered to a client that offers `requested`. */
export const negotiatedProtocolVersion = (requested: string): McpProtocolVersion =>
  MCP_PROTOCOL_VERSIONS.find((version) => version === requested) ?? MCP_PROTOCOL_VERSIONS[0]

/**
 * The answer to one line of a newline-delimited JSON-RPC stream when it is a well-formed
 * `initialize` request (an id, a string `protocolVersion`), with the id it answers; `undefined` for
 * anything else, which is left to the server.
 */
export const initializeAnswer = (line: string, version: string): { readonly id: string | number; readonly response: string } | undefined => {
  let message: unknown
  try {
    message = JSON.parse(line)
  } catch {
    return undefined
  }
  if (!isRecord(message) || message["jsonrpc"] !== "2.0" || message["method"] !== "initialize") return undefined
  const id = message["id"]
  const params = message["params"]
  if ((typeof id !== "string" && (typeof id !== "number" || !Number.isInteger(id))) || !isRecord(params) || typeof params["protocolVersion"] !== "string") return undefined
  const protocolVersion = negotiatedProtocolVersion(params["protocolVersion"])
  const result = { protocolVersion, capabilities: mcpServerCapabilities(protocolVersion), serverInfo: { name: MCP_SERVER_NAME, version } }
  return { id, response: JSON.stringify({ jsonrpc: "2.0", id, result }) }
}
