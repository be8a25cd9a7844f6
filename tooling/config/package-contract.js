import { existsSync, readFileSync } from "node:fs"
import { basename, join, resolve } from "node:path"
import { describe, expect, it } from "vitest"

const readJson = (file) => JSON.parse(readFileSync(file, "utf8"))

/**
 * A statement of `src/index.ts` that only re-exports, by name (a bare `export *` would publish
 * whatever a module comes to export, other packages' names included), or as a namespace, or the
 * empty module marker `export {}`.
 */
const REEXPORT = /^export\s+(?:type\s+)?(?:\*\s+as\s+\w+|\{[^}]*\})\s+from\s+"\.\/[^"]+\.js"$|^export\s*\{\s*\}$/

/**
 * The conventions every published Armory package keeps (DESIGN.md, "Package conventions"),
 * checked against the package's own files.
 */
export const describePackageContract = (packageDirectory) => {
  const packageDir = resolve(packageDirectory)
  const manifest = readJson(join(packageDir, "package.json"))
  const directoryName = basename(packageDir)

  describe(`${manifest.name} package contract`, () => {
    it("is named after its directory and published as public ESM for Node >= 22.19", () => {
      expect(manifest.name).toBe(`@armory/${directoryName}`)
      expect(manifest.type).toBe("module")
      expect(manifest.private).toBeUndefined()
      expect(manifest.publishConfig).toEqual({ access: "public" })
      expect(manifest.engines).toEqual({ node: ">=22.19" })
      expect(manifest.description?.length ?? 0).toBeGreaterThan(20)
    })

    it("ships only dist/, is side-effect free and exports types before the import condition", () => {
      expect(manifest.files).toEqual(["dist"])
      expect(manifest.sideEffects).toBe(false)
      const root = manifest.exports["."]
      expect(Object.keys(root)).toEqual(["types", "import"])
      expect(root.types).toMatch(/^\.\/dist\/.+\.d\.ts$/)
      expect(root.import).toMatch(/^\.\/dist\/.+\.js$/)
    })

    it("takes Effect as a peer, never as its own copy", () => {
      expect(manifest.dependencies?.effect).toBeUndefined()
      const usesEffect = manifest.devDependencies?.effect !== undefined
      expect({ usesEffect, peer: usesEffect && manifest.peerDependencies?.effect !== undefined }).toEqual({
        usesEffect,
        peer: usesEffect
      })
    })

    it("has an index.ts that only re-exports", () => {
      const statements = readFileSync(join(packageDir, "src", "index.ts"), "utf8")
        .replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "")
        .split(/;?\s*\n\s*(?=export[\s{*])/)
        .map((statement) => statement.trim().replace(/;$/, "").replace(/\s+/g, " "))
        .filter((statement) => statement.length > 0)
      for (const statement of statements) expect(statement).toMatch(REEXPORT)
    })

    it("accepts a range of each peer, never one exact version", () => {
      for (const [name, range] of Object.entries(manifest.peerDependencies ?? {})) {
        expect({ name, exact: /^v?\d/.test(range) || range === "catalog:" }).toEqual({ name, exact: false })
      }
    })

    it("has a README that names the package and says it is ESM only", () => {
      const readme = join(packageDir, "README.md")
      expect(existsSync(readme)).toBe(true)
      const text = readFileSync(readme, "utf8")
      expect(text.split("\n")[0]).toBe(`# ${manifest.name}`)
      // There is no `require` condition: a CommonJS consumer must learn that before installing.
      expect(text).toContain("ESM only")
    })
  })
}
