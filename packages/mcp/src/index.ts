export {
  DEFAULT_MAX_MESSAGE_BYTES,
  listenMcpHttp,
  MCP_HTTP_PATH,
  mcpHttpLayer,
  type McpHttpOptions,
  type McpHttpServer,
  type McpLogger,
  type McpOptions,
  mcpStdioLayer,
  serveMcpStdio
} from "./ArmoryMcp.js"
export { initializeAnswer, MCP_PROTOCOL_VERSIONS, MCP_SERVER_NAME, type McpProtocolVersion } from "./Initialize.js"
export { SKILL_URI_TEMPLATE, skillUri } from "./McpResources.js"
export { CODEMODE_INSTRUCTIONS_URI, GOAL_TOOL_NAMES, SNAPSHOT_URI, MCP_CHANNEL_ID, MCP_TOOL_NAMES, PAGE_TOOL_NAMES, SKILL_TOOL_NAMES } from "./McpTools.js"
export { MAX_RESULT_TEXT_CHARS, resultText } from "./ResultText.js"
