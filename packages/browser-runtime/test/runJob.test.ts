import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { receiptOf, runJob, runJobEffect, STOP_DESCRIPTIONS, StopCheckFailedError, StopReason, stopReason, UnsafeUrlError } from "../src/index.js"

/** A page that only records navigations: the runner's contract is about what it asks of the page. */
const recordingPage = () => {
  const events: Array<string> = []
  return {
    events,
    page: {
      goto: async (url: string, options: { waitUntil: string }) => {
        events.push(`goto ${url} ${options.waitUntil}`)
        return null
      }
    }
  }
}

describe("runJob", () => {
  it("answers MANUAL_HANDOFF as a stop reason, as k-skill jobs do", async () => {
    const result = await runJob({ page: {}, steps: [() => 1], stopOn: () => "MANUAL_HANDOFF" })
    expect(result).toMatchObject({ status: "stopped", stopReason: { code: "MANUAL_HANDOFF", message: STOP_DESCRIPTIONS.MANUAL_HANDOFF } })
  })

  it("carries the cleanup receipt, and is cleanup-blocked, never complete, when the receipt is not verified", async () => {
    const removed = receiptOf([{ kind: "page", id: "T1", removed: true, proof: "absent from Target.getTargets" }])
    const kept = receiptOf([{ kind: "page", id: "T1", removed: false, proof: "still in the browser's target list" }])
    expect(await runJob({ page: {}, steps: [() => 1], cleanup: async () => removed })).toEqual({ status: "complete", results: [1], cleanup: removed })
    const blocked = await runJob({ page: {}, steps: [() => 1], cleanup: async () => kept })
    expect(blocked).toEqual({
      status: "cleanup-blocked",
      blocker: "BLOCKED_BROWSER_DRIVER_CLEANUP_FAILED",
      outcome: { status: "complete", results: [1] },
      results: [1],
      cleanup: kept
    })
    const thrown = await runJob({ page: {}, steps: [() => 1], cleanup: () => Promise.reject(new Error("browser gone")) })
    expect(thrown).toMatchObject({ status: "cleanup-blocked", cleanup: { verified: false, items: [{ removed: false, proof: "cleanup failed: browser gone" }] } })
    let cleaned = 0
    await expect(
      runJob({
        page: {},
        steps: [
          () => {
            throw new Error("boom")
          }
        ],
        cleanup: async () => {
          cleaned += 1
          return removed
        }
      })
    ).rejects.toMatchObject({ _tag: "StepFailedError" })
    expect(cleaned).toBe(1)
  })

  it("returns no-steps without navigating for an empty or missing step list", async () => {
    const { page, events } = recordingPage()
    expect(await runJob({ url: "https://example.com", steps: [], page })).toEqual({ status: "no-steps", results: [] })
    expect(await runJob({ url: "https://example.com", steps: undefined as never, page })).toEqual({ status: "no-steps", results: [] })
    expect(events).toEqual([])
  })

  it("throws a TypeError for a non-function step before stopOn, navigation or any step", async () => {
    const { page, events } = recordingPage()
    const steps = [() => events.push("step 0"), "click the button"] as unknown as ReadonlyArray<() => unknown>
    await expect(runJob({ url: "https://example.com", steps, page, stopOn: () => void events.push("stopOn") })).rejects.toThrow(
      new TypeError("step 1 is string, not a function")
    )
    expect(events).toEqual([])
  })

  it("navigates exactly once, with domcontentloaded, only when a url and a step exist", async () => {
    const { page, events } = recordingPage()
    const result = await runJob({
      url: "about:blank",
      page,
      steps: [
        () => {
          events.push("step 0")
          return "first"
        },
        ({ results }) => results
      ],
      stopOn: ({ phase, index }) => void events.push(`stopOn ${phase} ${String(index)}`)
    })
    expect(events).toEqual(["stopOn navigate null", "goto about:blank domcontentloaded", "stopOn step 0", "step 0", "stopOn step 1"])
    expect(result).toEqual({ status: "complete", results: ["first", ["first"]] })

    const withoutUrl = recordingPage()
    expect(await runJob({ page: withoutUrl.page, steps: [() => "ran"] })).toEqual({ status: "complete", results: ["ran"] })
    expect(withoutUrl.events).toEqual([])
  })

  it("accepts a stop reason, its code or { code, message } and stops before navigation when told", async () => {
    const { page, events } = recordingPage()
    const answers = [stopReason("AUTH_REQUIRED"), "PAYMENT_REQUIRED", { code: "BLOCKED", message: "HTTP 403 from upstream" }] as const
    const stopped = await Promise.all(answers.map((answer) => runJob({ url: "https://example.com", page, steps: [() => 1], stopOn: () => answer })))
    expect(stopped.map((result) => (result.status === "stopped" ? result.stopReason : null))).toEqual([
      new StopReason({ code: "AUTH_REQUIRED", message: "the page requires the user to sign in" }),
      new StopReason({ code: "PAYMENT_REQUIRED", message: "continuing would make a payment" }),
      new StopReason({ code: "BLOCKED", message: "HTTP 403 from upstream" })
    ])
    expect(events).toEqual([])
  })

  it("types a stopOn that throws or answers something that is not a stop reason", async () => {
    const { page } = recordingPage()
    await expect(runJob({ page, steps: [() => 1], stopOn: () => "SOLVE_IT" as never })).rejects.toMatchObject({
      _tag: "StopCheckFailedError",
      phase: "step",
      index: 0,
      reason: 'stopOn answered "SOLVE_IT", which is not a stop reason'
    })
    const thrown = await runJob({
      url: "https://example.com",
      page,
      steps: [() => 1],
      stopOn: () => {
        throw new Error("selector exploded")
      }
    }).catch((failure: unknown) => failure)
    expect(thrown).toBeInstanceOf(StopCheckFailedError)
    expect(thrown).toMatchObject({ phase: "navigate", index: null, reason: "selector exploded" })
  })

  it("guards the url scheme before anything runs, also in the Effect form", async () => {
    const { page, events } = recordingPage()
    const failure = await Effect.runPromise(Effect.flip(runJobEffect({ url: "file:///etc/passwd", page, steps: [() => events.push("step")] })))
    expect(failure).toBeInstanceOf(UnsafeUrlError)
    expect(events).toEqual([])
    await expect(runJob({ url: "https://example.com", page: undefined, steps: [() => 1] })).rejects.toThrow(TypeError)
  })
})
