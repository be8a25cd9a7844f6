/**
 * Recognises steering directives that would weaken completion: skipping tests, bypassing the gate,
 * completing automatically, or marking work done without evidence. Such a directive is refused and
 * recorded as `steering_rejected`; steering may add work or change priorities, never lower the bar.
 */

const TESTING = String.raw`(?:the\s+)?(?:unit\s+|e2e\s+|integration\s+|failing\s+|remaining\s+)?(?:tests?|testing|test\s+suite|specs?|checks?|verification|validation|qa|ci|evidence|scenarios?|criteria|criterion|review|gate)`
const SKIP_VERBS = String.raw`(?:skip(?:ping)?|bypass(?:ing)?|ignor(?:e|ing)|disabl(?:e|ing)|omit(?:ting)?|drop(?:ping)?|remov(?:e|ing)|delet(?:e|ing)|circumvent(?:ing)?|get\s+around|work\s+around|turn(?:ing)?\s+off|switch(?:ing)?\s+off|forget\s+about|don'?t\s+bother\s+with|comment(?:ing)?\s+out|silenc(?:e|ing)|neuter(?:ing)?|waiv(?:e|ing)|relax(?:ing)?|loosen(?:ing)?|lower(?:ing)?)`
const DONE = String.raw`(?:done|complete[d]?|finished|passed|passing|pass|green|met|satisfied|resolved|success(?:ful)?)`
const NO_PROOF = String.raw`(?:without|w\/o|no|skipping|before(?:\s+any)?|regardless\s+of|even\s+without|instead\s+of)\s+(?:any\s+|real\s+|actual\s+|the\s+)?(?:evidence|proof|tests?|testing|verification|verifying|checks?|checking|running\s+(?:the\s+)?tests?|scenarios?|qa|green|review)`

const PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  [new RegExp(String.raw`\b${SKIP_VERBS}\s+(?:all\s+|any\s+|every\s+)?${TESTING}\b`), "it skips or disables verification"],
  [
    new RegExp(String.raw`\b(?:do\s+not|don'?t|no\s+need\s+to|never|stop|needn'?t|shouldn'?t)\s+(?:run|write|add|execute|bother\s+(?:to\s+)?(?:run|writ)\w*)\s+(?:any\s+)?${TESTING}\b`),
    "it skips or disables verification"
  ],
  [new RegExp(String.raw`\bno\s+(?:more\s+)?(?:tests?|testing|evidence|verification|qa)\s+(?:needed|required|necessary)\b`), "it waives the required evidence"],
  [new RegExp(String.raw`\b(?:bypass|override|overrule|circumvent|skip|disable|ignore|force(?:\s+through)?|get\s+around|open)\s+(?:the\s+)?(?:completion\s+|evidence\s+)?gate\b`), "it bypasses the completion gate"],
  [new RegExp(String.raw`\bauto[-\s]?(?:complete|completion|close|approve|pass|finish|merge)\b`), "it completes without the gate"],
  [new RegExp(String.raw`\b(?:complete|close|finish|pass|approve)\w*\s+(?:it\s+|the\s+goal\s+|everything\s+|all\s+)?automatically\b`), "it completes without the gate"],
  [new RegExp(String.raw`\bforce[-\s]?(?:complete|completion|close|pass|finish)\b`), "it forces completion past the gate"],
  [
    new RegExp(String.raw`\b(?:mark|set|flag|treat|consider|declare|call|report|record|claim)\w*(?:\s+[\w'-]+){0,4}?\s+(?:as\s+|to\s+)?${DONE}\b[^.]*?\b${NO_PROOF}\b`),
    "it marks work done without evidence"
  ],
  [
    new RegExp(String.raw`\b(?:mark|set|flag|treat|consider|declare)\w*\s+(?:all|every|each|everything|the\s+remaining|remaining)\s+(?:\w+\s+)?(?:as\s+)?${DONE}\b`),
    "it marks work done without evidence"
  ],
  [new RegExp(String.raw`\b(?:just|simply)\s+(?:mark|call|declare|say|consider)\s+(?:it|this|the\s+goal|everything)\s+(?:as\s+)?${DONE}\b`), "it marks work done without evidence"],
  [new RegExp(String.raw`\b${NO_PROOF}\b[^.]*?\b(?:mark|set|declare|call|consider|close|complete|finish)\w*\b`), "it marks work done without evidence"],
  [new RegExp(String.raw`\b(?:fake|fabricate|invent|stub\s+out|pretend|spoof|forge)\w*\s+(?:the\s+|some\s+)?(?:evidence|test\s+results?|results?|green|scenario|passing|pass)\b`), "it fabricates evidence"],
  [new RegExp(String.raw`\bdeclare\s+victory\b`), "it completes without the gate"]
]

/** A word character as the litgoal runtime's (Python) regular expressions read one: any letter or digit, or `_`. */
const WORD = String.raw`[\p{L}\p{N}_]`
/** Python's `\b` before a word, `\b` after one, `\s` (which also takes the separators U+001C–U+001F) and `\w`. */
const WORD_START = String.raw`(?<!${WORD})`
const WORD_END = String.raw`(?!${WORD})`
const SPACE = String.raw`[\s\x1c-\x1f]`

const litgoal = (source: string) =>
  new RegExp(source.replaceAll("_", SPACE).replaceAll("~", WORD).replaceAll("<", WORD_START).replaceAll(">", WORD_END), "iu")

/**
 * The nine directives the litgoal runtime refuses, with its semantics (Unicode words, case-insensitive,
 * on the directive as written): whatever it refuses is refused here too. `<` and `>` stand for a
 * word boundary before and after a word, `_` for a space character and `~` for a word character.
 */
const LITGOAL_PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  [litgoal("<skip(?:p?ing)?_+(?:the_+|all_+)?(?:unit_+|integration_+)?tests?>"), "it skips or disables verification"],
  [litgoal("<bypass(?:ing)?_+(?:the_+)?(?:quality_+)?(?:gate|tests?|qa|review|criteri)"), "it bypasses the completion gate"],
  [litgoal("<disabl(?:e|ing)_+(?:the_+)?(?:tests?|gate|check|qa)"), "it skips or disables verification"],
  [litgoal("<without_+(?:running_+|a_+|any_+)?(?:tests?|qa|review|evidence)"), "it does the work without the required evidence"],
  [litgoal("<auto[-\\s\\x1c-\\x1f]?complet"), "it completes without the gate"],
  [litgoal("<(?:force|mark)_+~*_*complet"), "it forces or marks completion"],
  [litgoal("<ignore_+(?:the_+)?(?:criteri|tests?|gate|evidence|qa)"), "it ignores what the gate requires"],
  [litgoal("<(?:lower|relax|loosen)_+(?:the_+)?(?:bar|gate|criteri|standard)"), "it lowers the bar for completion"],
  [litgoal("<skip_+(?:the_+)?(?:qa|review|gate|verification|evidence)"), "it skips or disables verification"]
]

/**
 * The reason a directive weakens completion, or `undefined` when it does not. The litgoal runtime's
 * patterns are matched on the directive as written; this package's own on its words after
 * normalising, lower-casing and collapsing whitespace, so obvious paraphrases match too.
 */
export const weakeningReason = (directive: string): string | undefined => {
  const text = directive.normalize("NFKC").toLowerCase().replace(/[’`]/g, "'").replace(/\s+/g, " ")
  for (const [pattern, reason] of LITGOAL_PATTERNS) if (pattern.test(directive) || pattern.test(text)) return reason
  for (const [pattern, reason] of PATTERNS) if (pattern.test(text)) return reason
  return undefined
}
