export { type Armable, type Armed, type ArmingWarning, type AutoInject, type EditCondition, type EditEvidence } from "./Armable.js"
export { arm, armedNames, type Input } from "./Arming.js"
export { ArmingIndex, compileSkills } from "./ArmingIndex.js"
export { compilePathGlob, MAX_BRACE_EXPANSION, normalizePath, type PathGlob } from "./PathGlob.js"
export { compileUrlGlob, normalizeUrl, type UrlGlob } from "./UrlGlob.js"
export {
  compileSuggestions,
  DEFAULT_MIN_EVIDENCE,
  MAX_SUGGEST_PROMPT_CHARS,
  MIN_SKILLS_FOR_EVIDENCE_FLOOR,
  suggest,
  type Suggestable,
  type SuggestInput,
  type Suggestion,
  type SuggestionIndex
} from "./Suggestion.js"
export { type AddedComment, addedComments, addedLines, type FileEdit } from "./Edit.js"
