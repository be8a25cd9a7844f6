/**
 * What an edit must have changed for a skill to arm on it, beyond its path: any condition that
 * holds is enough; `{}` holds for no edit.
 */
export interface EditCondition {
  /** The edit added or changed a comment, in a language whose comment syntax is known. */
  readonly comments?: boolean
  /** Keyword patterns (matched as prompt keywords are) of which one is in a line the edit added. */
  readonly added?: ReadonlyArray<string>
}

/** The `autoInject` block of a skill: what arms it. An absent or empty list matches nothing. */
export interface AutoInject {
  readonly keywords?: ReadonlyArray<string>
  readonly url?: ReadonlyArray<string>
  readonly paths?: ReadonlyArray<string>
  /**
   * Keywords count only inside a request ("open the browser", "can you check the page"), never in
   * a passing mention ("I read about browser history"). Default false: any mention counts.
   */
  readonly requested?: boolean
  /** Keyword patterns that, found anywhere in the prompt, keep the keywords from arming the skill (its URL and paths still can). */
  readonly unless?: ReadonlyArray<string>
  /**
   * Arm on an edit only when it changed what this says, in a file `paths` matches (any file when
   * `paths` is absent): a path alone no longer arms the skill.
   */
  readonly edits?: EditCondition
}

/** Anything with a name and an optional `autoInject` block, e.g. a loaded skill. */
export interface Armable {
  readonly name: string
  readonly autoInject?: AutoInject | undefined
}

/** An edited file whose change met a skill's edit condition, with the added lines that met it, in order. */
export interface EditEvidence {
  readonly path: string
  readonly lines: ReadonlyArray<string>
}

/** A skill that armed, with the patterns that armed it, as declared and in declared order. */
export interface Armed {
  readonly name: string
  readonly keywords: ReadonlyArray<string>
  readonly urls: ReadonlyArray<string>
  readonly paths: ReadonlyArray<string>
  /** For a skill with an edit condition: the edits that met it, one entry per file. */
  readonly edits: ReadonlyArray<EditEvidence>
}

/** A declared pattern that works but is risky, reported by `compileSkills`. */
export interface ArmingWarning {
  readonly skill: string
  readonly pattern: string
  readonly reason: string
}
