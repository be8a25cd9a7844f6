import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { expect, it, vi } from "vitest"

const readme = readFileSync(join(import.meta.dirname, "..", "README.md"), "utf8")
const examples = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1] ?? "")
const entry = join(import.meta.dirname, "..", "src", "index.ts")

it("has examples to run", () => {
  expect(examples.length).toBeGreaterThanOrEqual(4)
})

it.each(examples.map((code, index) => [index + 1, code] as const))("example %i runs and its assertions hold", async (_, code) => {
  // Each example becomes a module importing the package's source, so it runs exactly as written.
  const module = code.replaceAll('from "@armory/capability-probe"', `from ${JSON.stringify(entry)}`)
  const logged: Array<string> = []
  const log = vi.spyOn(console, "log").mockImplementation((line: string) => void logged.push(line))
  const file = join(mkdtempSync(join(tmpdir(), "capability-probe-readme-")), "example.ts")
  writeFileSync(file, module)
  try {
    await import(file)
  } finally {
    log.mockRestore()
  }
  for (const [line, expected] of [...code.matchAll(/console\.log\([^\n]*\)\n\/\/ (.*)/g)].map((match, at) => [logged[at], match[1]])) {
    expect(line).toBe(expected)
  }
})
