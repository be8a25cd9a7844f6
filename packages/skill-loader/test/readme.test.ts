import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { tmpdir } from "node:os"
import { skill, writeTree } from "./support.js"

const packageDirectory = join(import.meta.dirname, "..")
const readme = readFileSync(join(packageDirectory, "README.md"), "utf8")
const blocks = [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1] as string)

/**
 * What an example must print: the `// …` comment after its last `console.log`, or, for the examples
 * that load the fixture's skills, the line that proves they did.
 */
const expectedOutput = (code: string): string =>
  /^\/\/ (.+)$/m.exec(code.slice(code.lastIndexOf("console.log")))?.[1] ??
  (code.includes('loadSkills(["skills"])')
    ? 'skills/bad/SKILL.md: frontmatter rejected: at ["slash"]: Expected boolean, actual "yes please"'
    : code.includes("Effect.log(")
      ? "loaded hello"
      : "")

describe("README", () => {
  // Blocks are written inside the package so that their imports resolve against its dependencies.
  const blockDirectory = mkdtempSync(join(packageDirectory, "test", ".readme-"))
  const workingDirectory = process.cwd()
  let fixture = ""

  beforeAll(() => {
    fixture = mkdtempSync(join(tmpdir(), "skill-loader-readme-"))
    writeTree(fixture, { "skills/hello/SKILL.md": skill("hello"), "skills/bad/SKILL.md": skill("bad", "slash: yes please\n") })
    process.chdir(fixture)
  })
  afterAll(() => {
    process.chdir(workingDirectory)
    rmSync(blockDirectory, { recursive: true, force: true })
    rmSync(fixture, { recursive: true, force: true })
  })

  it("has TypeScript examples", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(4)
  })

  it.each(blocks.map((code, index) => [index, code] as const))("runs example %i", async (index, code) => {
    const printed: Array<string> = []
    const spy = vi.spyOn(console, "log").mockImplementation((...values: Array<unknown>) => {
      printed.push(values.map(String).join(" "))
    })
    try {
      const file = join(blockDirectory, `example-${index}.ts`)
      writeFileSync(file, code.replaceAll('from "@armory/skill-loader"', `from ${JSON.stringify(pathToFileURL(join(packageDirectory, "src/index.ts")).href)}`))
      await import(pathToFileURL(file).href)
    } finally {
      spy.mockRestore()
    }
    expect(printed.join("\n")).toContain(expectedOutput(code))
  })
})
