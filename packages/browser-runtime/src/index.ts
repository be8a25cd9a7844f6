export { type AsideOptions, AsideSession, type AsideTab, DEFAULT_ASIDE_TIMEOUT_MS, probeAside } from "./Aside.js"
export {
  type AutomationDialog,
  type AutomationFrame,
  type AutomationLocator,
  type AutomationPage,
  automationPage,
  type ElementHandleLike,
  type PageSettings,
  type QueriedElement,
  type QueryBound
} from "./AutomationPage.js"
export { type CdpBrowser, type CdpChromium, type CdpContext, type CdpDownload, type CdpPage, type CdpSession, type CdpTargetInfo } from "./CdpBrowser.js"
export { CleanupItem, CleanupReceipt, receiptOf } from "./CleanupReceipt.js"
export {
  type AsideConnection,
  type BrowserConnection,
  type CdpConnection,
  connect,
  connectEffect,
  type ConnectLoader,
  type ConnectOptions,
  type Probe,
  type ProbeTarget,
  probeTarget
} from "./Connect.js"
export {
  DEFAULT_ASIDE_COMMAND,
  DEFAULT_BROWSEROS_CDP_URL,
  DEFAULT_CHROME_CDP_URL,
  type Environment,
  ENVIRONMENT_VARIABLES,
  normalizeProvider,
  readSetting,
  resolveAsideCommand,
  resolveCdpUrl
} from "./Environment.js"
export { NavigationFailedError, StepFailedError, StepTimeoutError, StopCheckFailedError } from "./JobErrors.js"
export { type AutomationPageOptions, type AutomationSession, disconnect, getAutomationPage } from "./Lifecycle.js"
export {
  ActionReceipt,
  type CallOptions,
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_NODES,
  DEFAULT_MAX_SNAPSHOT_ELEMENTS,
  DEFAULT_PAGE_TIMEOUT_MS,
  DialogAnswer,
  DialogRecord,
  DomainUnavailableError,
  MAX_MAX_BYTES,
  MAX_MAX_NODES,
  MAX_MAX_SNAPSHOT_ELEMENTS,
  MAX_PAGE_TIMEOUT_MS,
  type Page,
  PageNode,
  PageSnapshot,
  type QueryOptions,
  QueryResult,
  Screenshot,
  type ScreenshotOptions,
  SelectReceipt,
  type SnapshotOptions,
  type Target,
  type TextOptions,
  unavailablePage,
  type WaitCondition
} from "./Page.js"
export {
  AmbiguousSelectorError,
  DialogOpenedError,
  ElementNotFoundError,
  InvalidPageOptionError,
  InvalidSelectorError,
  NavigationError,
  PageAbortedError,
  PageClosedError,
  PageTimeoutError,
  PageTooLargeError,
  StaleHandleError
} from "./PageErrors.js"
export { MAX_FILL_FIELDS, PAGE_INSTRUCTIONS, type PageTool, pageTools } from "./PageTools.js"
export { type CdpVersion, DEFAULT_PROBE_MAX_BODY_BYTES, DEFAULT_PROBE_TIMEOUT_MS, probeCdp, probeCdpEffect, type ProbeCdpOptions } from "./ProbeCdp.js"
export { AUTO_ORDER, type ConcreteProvider, DARWIN_AUTO_ORDER, isKnownProvider, isProvider, type Provider, PROVIDERS, resolveAutoOrder } from "./Provider.js"
export {
  DEFAULT_STEP_TIMEOUT_MS,
  type JobError,
  type JobOutcome,
  type JobPage,
  type JobResult,
  runJob,
  runJobEffect,
  type RunJobOptions,
  type Step,
  type StepContext,
  type StopAnswer,
  type StopContext,
  type StopOn
} from "./RunJob.js"
export { BrowserUnavailableError, PlaywrightUnavailableError, ProviderAttempt, UnknownProviderError } from "./RuntimeErrors.js"
export { isStopCode, STOP_CODES, STOP_DESCRIPTIONS, type StopCode, StopReason, stopReason } from "./StopReason.js"
export { assertNavigableUrl, isNavigableUrl, UnsafeUrlError } from "./UrlGuard.js"
