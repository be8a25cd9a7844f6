import { Schema } from "effect"

/** A step threw; `index` is its position in `steps`. */
export class StepFailedError extends Schema.TaggedError<StepFailedError>()("StepFailedError", {
  index: Schema.Number,
  reason: Schema.String
}) {
  override get message(): string {
    return `step ${this.index} failed: ${this.reason}`
  }
}

/** A step did not settle within the per-step timeout; it was told to abort through its signal. */
export class StepTimeoutError extends Schema.TaggedError<StepTimeoutError>()("StepTimeoutError", {
  index: Schema.Number,
  timeoutMs: Schema.Number
}) {
  override get message(): string {
    return `step ${this.index} did not finish within ${this.timeoutMs} ms`
  }
}

/** The job's own navigation to its url failed or timed out. */
export class NavigationFailedError extends Schema.TaggedError<NavigationFailedError>()("NavigationFailedError", {
  url: Schema.String,
  reason: Schema.String
}) {
  override get message(): string {
    return `navigation to ${this.url} failed: ${this.reason}`
  }
}

/** `stopOn` threw or answered with something that is not a stop reason. */
export class StopCheckFailedError extends Schema.TaggedError<StopCheckFailedError>()("StopCheckFailedError", {
  phase: Schema.Literals(["navigate", "step"]),
  index: Schema.NullOr(Schema.Number),
  reason: Schema.String
}) {
  override get message(): string {
    return `stopOn failed before ${this.phase === "navigate" ? "navigation" : `step ${this.index ?? "?"}`}: ${this.reason}`
  }
}
