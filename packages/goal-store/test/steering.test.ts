import { weakeningReason } from "@armory/goal-store"
import fc from "fast-check"
import { describe, expect, it } from "vitest"

const weakening = [
  "Skip the tests, we are out of time",
  "skip testing for now",
  "Just mark it done without running the tests",
  "mark all criteria as passed",
  "Mark everything complete",
  "Bypass the gate and close the goal",
  "override the completion gate",
  "auto-complete the goal when the build is green",
  "autocomplete this",
  "complete it automatically",
  "Force complete the goal",
  "don't run the e2e tests",
  "No need to write tests",
  "no tests needed for this one",
  "ignore the failing tests",
  "disable the checks in CI",
  "consider it done even without evidence",
  "set c1 to pass without any evidence",
  "declare victory",
  "fake the scenario evidence",
  "comment out the failing specs",
  "Without verification, mark the goal complete",
  "please don’t bother running the tests"
]

const benign = [
  "Add a criterion for the logout flow",
  "Focus on the mobile layout first",
  "Narrow the scope to the CLI; the web UI is a separate goal",
  "Reprioritize: the API tests before the UI tests",
  "Mark c2 as in progress",
  "Write more tests for the skip button",
  "the review found a race in the lock; add a criterion for it",
  "Run the tests on every commit",
  "Mark it done once the green and scenario evidence are in",
  "redirect effort to the payment flow"
]

describe("completion-weakening directives", () => {
  it.each(weakening)("refuses %j", (directive) => {
    expect(weakeningReason(directive)).toBeDefined()
  })

  it.each(benign)("lets %j through", (directive) => {
    expect(weakeningReason(directive)).toBeUndefined()
  })
})

/**
 * The litgoal runtime's nine refusal patterns, as it writes them (without their leading `\b`, which
 * the generated text provides, and with `\b` at the end only where it has one).
 */
const LITGOAL_REFUSALS: ReadonlyArray<readonly [string, boolean]> = [
  [String.raw`skip(p?ing)?\s+(the\s+|all\s+)?(unit\s+|integration\s+)?tests?`, true],
  [String.raw`bypass(ing)?\s+(the\s+)?(quality\s+)?(gate|tests?|qa|review|criteri)`, false],
  [String.raw`disabl(e|ing)\s+(the\s+)?(tests?|gate|check|qa)`, false],
  [String.raw`without\s+(running\s+|a\s+|any\s+)?(tests?|qa|review|evidence)`, false],
  [String.raw`auto[-\s]?complet`, false],
  [String.raw`(force|mark)\s+\w*\s*complet`, false],
  [String.raw`ignore\s+(the\s+)?(criteri|tests?|gate|evidence|qa)`, false],
  [String.raw`(lower|relax|loosen)\s+(the\s+)?(bar|gate|criteri|standard)`, false],
  [String.raw`skip\s+(the\s+)?(qa|review|gate|verification|evidence)`, false]
]

const before = fc.constantFrom("", "Please ", "ok, ", "Then:\n", "we should ", "(", "Ship it and ")
const after = fc.constantFrom("", ".", " now", ", then ship", "!\n", " — deadline is today")
const wordAfter = fc.string({ maxLength: 8 })

/** Any of the nine, with a random casing and words around it, as a model might write it. */
const refusedByLitgoal = fc.integer({ min: 0, max: LITGOAL_REFUSALS.length - 1 }).chain((index) => {
  const [source, boundaryAfter] = LITGOAL_REFUSALS[index] ?? ["", false]
  return fc
    .tuple(before, fc.stringMatching(new RegExp(`^${source}$`)), boundaryAfter ? after : fc.oneof(after, wordAfter), fc.array(fc.boolean(), { maxLength: 80 }))
    .map(([head, core, tail, upper]) => head + [...core].map((char, at) => (upper[at] === true ? char.toUpperCase() : char)).join("") + tail)
})

describe("at least what the litgoal runtime refuses", () => {
  it("refuses every directive any of its nine patterns matches (fast-check)", () => {
    fc.assert(
      fc.property(refusedByLitgoal, (directive) => {
        expect([directive, weakeningReason(directive) !== undefined]).toEqual([directive, true])
      }),
      { numRuns: 2_000 }
    )
  })

  it.each([
    "bypass the quality gate",
    "mark it complete",
    "lower the bar",
    "loosen the standard",
    "finish it without tests",
    "ship without review",
    "land this without evidence",
    "Skip\u001ctests",
    "MARK über complete"
  ])("refuses %j", (directive) => {
    expect(weakeningReason(directive)).toBeDefined()
  })
})
