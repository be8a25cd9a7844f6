import { readFileSync } from "node:fs"
import { isBuiltin } from "node:module"
import { dirname, join } from "node:path"
import { describe, expect, it } from "vitest"

const dist = join(import.meta.dirname, "..", "dist")
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']/g

/** Every module specifier outside the package that `entry` loads, following its imports of the package's own files. */
const externalImports = (entry: string): ReadonlySet<string> => {
  const external = new Set<string>()
  const seen = new Set<string>()
  const visit = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    for (const [, specifier = ""] of readFileSync(file, "utf8").matchAll(SPECIFIER)) {
      if (specifier.startsWith(".")) visit(join(dirname(file), specifier))
      else external.add(specifier)
    }
  }
  visit(join(dist, entry))
  return external
}

describe("the /schema entry", () => {
  it("loads effect and nothing else: no file system, no store", () => {
    expect([...externalImports("schema.js")]).toEqual(["effect"])
  })

  it("is told apart from the main entry, which does load the file system", () => {
    expect([...externalImports("index.js")].filter((specifier) => isBuiltin(specifier))).toContain("fs")
  })
})
