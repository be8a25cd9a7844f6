import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { containsSecret } from "../src/index.js"
import { secretKind } from "../src/Secrets.js"
import { SECRET_SAMPLES } from "./fixtures.js"


describe("containsSecret", () => {
  it.each(SECRET_SAMPLES)("detects a %s", (kind, sample) => {
    expect(containsSecret(`agent-browser 0.34.0 ${sample}`)).toBe(true)
    expect(secretKind(sample)).toBe(kind)
  })

  it.each([
    "agent-browser 0.34.0",
    "/usr/local/bin/agent-browser",
    "ghp_tooshort",
    "see https://example.com/docs for help",
    "AKIA lowercase akiaabcdefghijklmnop",
    "the password is not here"
  ])("does not flag %j", (text) => {
    expect(containsSecret(text)).toBe(false)
  })

  it("finds a GitHub token wherever it sits in harmless text", () => {
    const harmless = fc.string({ unit: fc.constantFrom(..."abc xyz.-/0123"), maxLength: 40 })
    const token = fc.string({ unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"), minLength: 36, maxLength: 36 })
    const detected = fc.property(harmless, token, harmless, (before, body, after) => containsSecret(`${before} ${["gh", "p_", body].join("")} ${after}`))
    expect(() => fc.assert(detected)).not.toThrow()
  })
})
