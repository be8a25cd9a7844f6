export * from "./ArmoryMcp.js"
export { initializeAnswer, MCP_PROTOCOL_VERSIONS, MCP_SERVER_NAME, type McpProtocolVersion } from "./Initialize.js"
export { SNAPSHOT_URI, skillUri } from "./McpResources.js"
export { CODEMODE_INSTRUCTIONS_URI, GOAL_TOOL_NAMES, MAX_RESULT_TEXT_CHARS, MCP_CHANNEL_ID, MCP_TOOL_NAMES, PAGE_TOOL_NAMES, SKILL_TOOL_NAMES } from "./McpTools.js"
