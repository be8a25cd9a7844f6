export {
  Api,
  API_VERSION,
  Authorization,
  BrowserGroup,
  CapabilitiesGroup,
  CodemodeGroup,
  GoalsGroup,
  HealthGroup,
  REGENERATE_COMMAND,
  SkillsGroup
} from "./Api.js"
export { Armed, ArmRequest } from "./Armed.js"
export { BrowserProviderName, BrowserProviderProbe, BrowserProviders, BrowserUnavailable, ProviderAttempt } from "./BrowserProviders.js"
export { InvalidGlobals, MethodNotAllowed, MisdirectedRequest, PayloadTooLarge, RouteNotFound, Unauthorized, UnsupportedMediaType } from "./Errors.js"
export {
  ChannelTranscript,
  ExecuteRequest,
  ExecuteResponse,
  ExecuteResult,
  MAX_EXECUTE_CODE_LENGTH,
  MAX_EXECUTE_TIMEOUT_MS,
  ToolCallRecord
} from "./ExecuteResult.js"
export * as Goals from "./Goals.js"
export { Health } from "./Health.js"
export { openApiDocument, openApiText } from "./OpenApiDocument.js"
export { ProbeDriver, ProbeResult } from "./ProbeResult.js"
export { LoadReport, SkillInfo } from "./Skills.js"
