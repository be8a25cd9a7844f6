export { acquireBrowserPage, PageUnavailable, probeProviders, PROVIDER_PROBE_TIMEOUT_MS, type ProviderProbe, type ProviderReport } from "./BrowserPage.js"
export {
  DEFAULT_MAX_OPEN_SESSIONS,
  type GoalMutationName,
  type GoalOperationName,
  type GoalSessionsShape,
  type GoalStoreError,
  type GoalStoreShape,
  type InputOf,
  isMutationName,
  mutationMethods,
  makeGoalSessions,
  type OutputOf,
  runMutation
} from "./GoalSessions.js"
export {
  exportSession,
  type GoalBacking,
  type GoalStoreSelection,
  importSession,
  openGoalBacking,
  openGoalSession,
  openPgDatabase,
  pgSession
} from "./GoalStores.js"
export { Host, type HostOptions, type HostRun, type HostShape, makeHost, NO_HOST_BROWSER } from "./Host.js"
export {
  AGENTS_SECTION_BEGIN,
  AGENTS_SECTION_END,
  agentsSection,
  CLAUDE_CODE_ARMORY_TOOLS,
  CODEX_SERVER_SETTINGS,
  DEFAULT_ARMORY_COMMAND,
  hostSetup,
  MAX_AGENTS_SECTION_CHARS,
  SETUP_HOSTS,
  SETUP_NEXT_STEPS,
  type SetupContext,
  type SetupFile,
  type SetupHost,
  type SetupSkill
} from "./HostSetup.js"
export {
  type ArmedSkill,
  type Channel,
  collectingChannel,
  DOMAIN_GLOBALS,
  HOST_GLOBALS,
  hostTools,
  type HostToolTree,
  type Tool,
  type ToolTree,
  unavailableChannel,
  UnknownSkill
} from "./HostTools.js"
export { hostAuthorities, isLoopbackHost, tokenMatcher } from "./LoopbackAccess.js"
export {
  InvalidMcpConfig,
  MAX_MCP_CONFIG_BYTES,
  MAX_MCP_SERVERS,
  McpHttpServer,
  McpServerConfig,
  type McpServers,
  McpServersFile,
  McpStdioServer,
  parseMcpConfig,
  readMcpConfig
} from "./McpServerConfig.js"
export {
  connectMcpServer,
  connectMcpServers,
  MCP_REFRESH_TIMEOUT,
  type McpServerConnection,
  McpServerNamesCollide,
  McpServerUnavailable,
  type McpToolTreeOptions
} from "./McpServerConnection.js"
export {
  MAX_MCP_DESCRIPTION_CHARS,
  MAX_MCP_ERROR_TEXT_CHARS,
  MAX_MCP_TOOLS,
  mcpIdentifier,
  McpToolError,
  McpToolNamesCollide,
  mcpToolNamespace,
  type SkippedMcpTool
} from "./McpToolNamespace.js"
export { MAX_MCP_SCHEMA_BYTES } from "./McpToolSchemas.js"
export { mcpToolTree, type McpToolTrees, refreshServersToolTree, serversToolTree } from "./McpToolTree.js"
export { probe, PROBE_DRIVERS, type ProbeDriverName } from "./Probe.js"
export { projectRootOf } from "./ProjectRoot.js"
export {
  type ArmRequest,
  type CatalogSnapshot,
  type LoadReport,
  makeSkillCatalog,
  type SkillCatalogOptions,
  type SkillCatalogShape,
  type SkillInfo,
  type SkillSource,
  type SuggestRequest
} from "./SkillCatalog.js"
export { DEFAULT_SKILL_ROOTS_TEXT, type DefaultSkillSourceOptions, defaultSkillSources, type SkillPrecedence, skillSources } from "./SkillSources.js"
export { answerToolCall, type ToolAnswer } from "./ToolAnswers.js"
