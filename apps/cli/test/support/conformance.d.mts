export interface ConformanceCheck {
  readonly id: string
  readonly status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED"
  readonly errorMessage?: string
}

export interface ScenarioRun {
  readonly code: number
  readonly checks: ReadonlyArray<ConformanceCheck>
  readonly output: string
}

/** The server scenarios that must pass against `armory mcp --http`, and every other one with why it does not apply. */
export declare const ARMORY_SCENARIOS: { readonly applies: ReadonlyArray<string>; readonly notApplicable: Readonly<Record<string, string>> }
/** The suite's version, as its package gives it. */
export declare const CONFORMANCE_VERSION: string
/** Every server scenario the suite knows (`conformance list`), in its order. */
export declare const serverScenarios: () => Promise<ReadonlyArray<string>>
/** Runs one server scenario against `url`: the suite's exit code and its checks (`checks.json`). */
export declare const runServerScenario: (url: string, scenario: string) => Promise<ScenarioRun>
/** A pass-through on 127.0.0.1 that adds the bearer token to every request for the endpoint at `target`. */
export declare const startTokenPassThrough: (target: string, token: string) => Promise<{ readonly url: string; readonly close: () => Promise<void> }>
