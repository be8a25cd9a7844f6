import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join, relative } from "node:path"
import { describe, expect, it } from "vitest"

const workspace = join(import.meta.dirname, "..", "..", "..")

/**
 * The Armory packages each package may use (DESIGN.md, "Dependency direction"), in its manifest's
 * dependencies and peers and in any import of its sources, type-only ones included. An entry that
 * names a subpath allows that entry point only (the API contract builds on the goal store's Schemas,
 * never on the store). Everything
 * points down: no package uses one above it, and nothing reaches around a layer the design puts
 * between (the server uses the packages only through the host). The CLI is the top.
 */
const DOMAIN_PACKAGES = [
  "@armory/skill-loader",
  "@armory/skill-arming",
  "@armory/goal-store",
  "@armory/goal-store-pg",
  "@armory/capability-probe",
  "@armory/browser-runtime",
  "@armory/codemode"
]

const ALLOWED = {
  "@armory/skill-arming": [],
  "@armory/codemode": [],
  "@armory/goal-store": [],
  "@armory/capability-probe": [],
  "@armory/api": ["@armory/goal-store/schema"],
  "@armory/skill-loader": ["@armory/skill-arming"],
  "@armory/goal-store-pg": ["@armory/goal-store"],
  "@armory/browser-runtime": ["@armory/capability-probe"],
  "@armory/client": ["@armory/api"],
  "@armory/host": DOMAIN_PACKAGES,
  "@armory/server": ["@armory/api", "@armory/host"],
  "@armory/mcp": ["@armory/host"],
  "@armory/cli": ["@armory/server", "@armory/mcp", "@armory/host", ...DOMAIN_PACKAGES]
}

const ARMORY_IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)["']((@armory\/[a-z-]+)(?:\/[^"']*)?)["']/g

const sourceFiles = (directory) =>
  readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name)
    if (entry.isDirectory()) return entry.name === "generated" ? [] : sourceFiles(path)
    return /\.(?:ts|mts|js|mjs)$/.test(entry.name) ? [path] : []
  })

const packages = ["packages", "apps"].flatMap((group) =>
  readdirSync(join(workspace, group), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(workspace, group, entry.name, "package.json")))
    .map((entry) => {
      const dir = join(workspace, group, entry.name)
      return { dir, manifest: JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) }
    })
)

/** Every Armory package a package uses, with where it uses it. */
const usesOf = ({ dir, manifest }) => {
  const uses = []
  for (const field of ["dependencies", "peerDependencies", "optionalDependencies"]) {
    for (const name of Object.keys(manifest[field] ?? {})) if (name.startsWith("@armory/")) uses.push({ name, where: `package.json ${field}` })
  }
  for (const file of sourceFiles(join(dir, "src"))) {
    for (const match of readFileSync(file, "utf8").matchAll(ARMORY_IMPORT)) uses.push({ name: match[1], where: relative(workspace, file) })
  }
  return uses
}

/** Whether `allowed` (package names, or `package/subpath` entry points) covers a use: a manifest names the package, an import its entry point. */
const isAllowed = (allowed, use) => {
  const packageName = use.name.split("/").slice(0, 2).join("/")
  if (allowed.has(packageName)) return true
  return use.where.startsWith("package.json") ? [...allowed].some((entry) => entry.startsWith(`${packageName}/`)) : allowed.has(use.name)
}

describe("the dependency direction", () => {
  it("knows every package of the workspace", () => {
    expect(packages.map(({ manifest }) => manifest.name).filter((name) => !(name in ALLOWED) && name.startsWith("@armory/") && !["@armory/config", "@armory/bench"].includes(name))).toEqual([])
  })

  it.each(packages.filter(({ manifest }) => manifest.name in ALLOWED).map((entry) => [entry.manifest.name, entry]))(
    "%s uses only the packages below it",
    (name, entry) => {
      const allowed = new Set([name, ...ALLOWED[name]])
      expect(usesOf(entry).filter((use) => !isAllowed(allowed, use))).toEqual([])
    }
  )

  it("keeps the fetch client's entry free of Effect and of every Armory package", () => {
    const entry = join(workspace, "packages", "client", "src")
    const offenders = sourceFiles(entry)
      .filter((file) => !file.endsWith("effect.ts"))
      .filter((file) => /["'](?:effect|@effect\/[^"']+|@armory\/[^"']+)(?:\/[^"']*)?["']/.test(readFileSync(file, "utf8")))
      .map((file) => relative(workspace, file))
    expect(offenders).toEqual([])
  })
})
