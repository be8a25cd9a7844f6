import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { projectRootOf } from "../src/index.js"

const directories: Array<string> = []
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true })
})

const tree = (...folders: ReadonlyArray<string>): string => {
  const root = mkdtempSync(join(tmpdir(), "armory-root-"))
  directories.push(root)
  for (const folder of folders) mkdirSync(join(root, folder), { recursive: true })
  return root
}

describe("projectRootOf", () => {
  it("finds the nearest folder with .armory at or above the session's directory, before any .git", () => {
    const root = tree(".git", "app/.armory", "app/src/deep")
    expect(projectRootOf(join(root, "app", "src", "deep"), { home: "/nonexistent-home" })).toBe(join(root, "app"))
    expect(projectRootOf(join(root, "app"), { home: "/nonexistent-home" })).toBe(join(root, "app"))
  })

  it("falls back to the repository's root, then to the directory itself", () => {
    const repository = tree(".git", "packages/web")
    expect(projectRootOf(join(repository, "packages", "web"), { home: "/nonexistent-home" })).toBe(repository)
    const loose = tree("notes/today")
    expect(projectRootOf(join(loose, "notes", "today"), { home: "/nonexistent-home" })).toBe(join(loose, "notes", "today"))
  })

  it("never takes the home directory, whose .armory is the user's, nor anything above it", () => {
    const home = tree(".armory/skills", ".git", "work/project")
    expect(projectRootOf(join(home, "work", "project"), { home })).toBe(join(home, "work", "project"))
  })
})
