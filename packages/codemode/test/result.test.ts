import { describe, expect, it, vi } from "vitest"
import { execute } from "../src/index.js"
import type { SandboxOutcome } from "../src/internal/Protocol.js"

// A sandbox whose result text is not JSON: the prelude cannot write one, so only a stand-in can.
vi.mock("../src/internal/SandboxPool.js", () => ({
  makeSandboxPool: () => ({
    run: async (): Promise<SandboxOutcome> => ({ status: "completed", resultJson: "{not json", logs: ["[log] kept"], truncated: false, memoryBytes: 0 }),
    close: async () => undefined
  })
}))

describe("a result the sandbox could not have written", () => {
  it("is the execution's error, not a rejection", async () => {
    const result = await execute("return 1", { tools: {} })
    expect(result).toEqual({
      status: "error",
      logs: ["[log] kept"],
      error: { _tag: "MalformedResult", message: "the sandbox returned a result that is not JSON" },
      calls: []
    })
  })
})
