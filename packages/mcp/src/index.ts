export * from "./ArmoryMcp.js"
export { SNAPSHOT_URI, skillUri } from "./McpResources.js"
export { GOAL_TOOL_NAMES, MAX_RESULT_TEXT_CHARS, MCP_CHANNEL_ID, MCP_TOOL_NAMES, PAGE_TOOL_NAMES, SKILL_TOOL_NAMES } from "./McpTools.js"
