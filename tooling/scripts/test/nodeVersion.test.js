import { describe, expect, it } from "vitest"
import { satisfiesMinimum } from "../node-version.mjs"

describe("satisfiesMinimum", () => {
  it.each([
    ["22.19.0", "22.19", true],
    ["v24.1.0", "22.19", true],
    ["22.20.1", "22.19", true],
    ["23.0.0", "22.19", true],
    ["22.18.9", "22.19", false],
    ["20.20.2", "22.19", false],
    ["9.99.0", "22.19", false]
  ])("%s >= %s is %s", (version, minimum, expected) => {
    expect(satisfiesMinimum(version, minimum)).toBe(expected)
  })
})
