export {
  catalog,
  CatalogBudgetTooSmall,
  type CatalogEntry,
  type CatalogOptions,
  catalogResult,
  DEFAULT_CATALOG_MAX_CHARS,
  findSkill,
  InvalidCatalogBudget
} from "./Catalog.js"
export {
  DEFAULT_MAX_DEPTH,
  DEFAULT_MAX_DIRECTORIES,
  describePlatformError,
  discoverSkillFiles,
  type Discovery,
  type DiscoveryOptions,
  type DiscoveryWarning,
  type SkillFile,
  type SkillSource,
  sourceNames,
  type Unreadable
} from "./Discovery.js"
export { type Frontmatter, splitFrontmatter } from "./Frontmatter.js"
export { MAX_FRONTMATTER_BYTES, MAX_FRONTMATTER_ENTRIES, MAX_FRONTMATTER_NESTING, MAX_SKILL_FILE_BYTES } from "./Limits.js"
export { ArmingWarningEntry, DroppedDocument, IgnoredAutoInject, LoadReport, ShadowedSkill } from "./LoadReport.js"
export { discoverSkills, load, type LoadLogger, type LoadOptions, loadSkills, type LoadSkillsOptions } from "./Loader.js"
export { read, readSkill, type ReadSkillOptions, SkillContents, SkillFileEntry } from "./SkillContents.js"
export { decodeSkillDocument, type SkillDocument, type SkillOrigin } from "./SkillDocument.js"
export { AutoInject, EditCondition, SkillDescription, SkillFrontmatter, SkillFrontmatterFields, SkillInfo, SkillName } from "./SkillInfo.js"
