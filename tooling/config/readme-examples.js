import { execFileSync } from "node:child_process"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { describe, expect, it } from "vitest"

const FENCE = /^```ts\n([\s\S]*?)^```$/gm
const PRINTS = /\/\/ prints: (.*)$/

/**
 * Runs every ```ts block of a package README as a program against the package's built output and
 * checks what it prints: each `// prints: <text>` comment must equal the next line printed.
 * A README example that stops working fails the suite.
 */
export const describeReadmeExamples = (packageDirectory) => {
  const packageDir = resolve(packageDirectory)
  const readme = readFileSync(join(packageDir, "README.md"), "utf8")
  const blocks = [...readme.matchAll(FENCE)].map((match) => match[1] ?? "")

  describe("README examples", () => {
    it("has examples to run", () => {
      expect(blocks.length).toBeGreaterThan(0)
    })

    blocks.forEach((code, index) => {
      const expected = code
        .split("\n")
        .map((line) => PRINTS.exec(line)?.[1])
        .filter((line) => line !== undefined)
      it(`example ${index + 1} prints what the README says`, () => {
        const directory = join(packageDir, "test-results", "readme")
        mkdirSync(directory, { recursive: true })
        const file = join(directory, `example-${index + 1}.ts`)
        writeFileSync(file, code)
        const printed = execFileSync(process.execPath, [file], { cwd: packageDir, encoding: "utf8", timeout: 60_000 })
        expect(printed.trimEnd().split("\n").slice(0, expected.length)).toEqual(expected)
      })
    })
  })
}
