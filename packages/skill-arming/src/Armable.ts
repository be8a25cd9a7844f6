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
}

/** Anything with a name and an optional `autoInject` block, e.g. a loaded skill. */
export interface Armable {
  readonly name: string
  readonly autoInject?: AutoInject | undefined
}

/** A skill that armed, with the patterns that armed it, as declared and in declared order. */
export interface Armed {
  readonly name: string
  readonly keywords: ReadonlyArray<string>
  readonly urls: ReadonlyArray<string>
  readonly paths: ReadonlyArray<string>
}

/** A declared pattern that works but is risky, reported by `compileSkills`. */
export interface ArmingWarning {
  readonly skill: string
  readonly pattern: string
  readonly reason: string
}
