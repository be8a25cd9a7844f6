import { mkdirSync, symlinkSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { loadSkills, readSkill } from "../src/index.js"
import { skill, temporaryDirectory, writeTree } from "./support.js"

const loadOne = async (root: string) => {
  const report = await loadSkills([root])
  const [loaded] = report.skills
  if (loaded === undefined) throw new Error(`no skill loaded: ${JSON.stringify(report.dropped)}`)
  return loaded
}

describe("readSkill", () => {
  it("gives the body and lists the skill's files, breadth first, without hidden entries, dependencies or SKILL.md", async () => {
    const root = temporaryDirectory()
    writeTree(root, {
      "SKILL.md": skill("pdf", "", "# Use the scripts\nRun scripts/fill.py.\n"),
      "scripts/fill.py": "print('x')\n",
      "reference.md": "# Reference\n",
      "templates/deep/form.txt": "abc",
      ".git/config": "[core]\n",
      "node_modules/dep/index.js": "",
      ".env": "SECRET=1"
    })
    const contents = await readSkill(await loadOne(root))
    expect(contents.body).toBe("# Use the scripts\nRun scripts/fill.py.\n")
    expect(contents.files).toEqual([
      { path: "reference.md", bytes: 12 },
      { path: "scripts/fill.py", bytes: 11 },
      { path: "templates/deep/form.txt", bytes: 3 }
    ])
    expect(contents.truncated).toBe(false)
  })

  it("stops at maxFiles and maxDepth and says so", async () => {
    const root = temporaryDirectory()
    const many = Object.fromEntries(Array.from({ length: 50 }, (_, index) => [`data/file-${String(index).padStart(2, "0")}.txt`, "x"]))
    writeTree(root, { "SKILL.md": skill("wide"), ...many, "a/b/c/d/e/f/deep.txt": "x" })
    const skillInfo = await loadOne(root)
    const wide = await readSkill(skillInfo, { maxFiles: 10 })
    expect(wide.files).toHaveLength(10)
    expect(wide.truncated).toBe(true)
    const shallow = await readSkill(skillInfo, { maxDepth: 2 })
    expect(shallow.files.map((file) => file.path)).not.toContain("a/b/c/d/e/f/deep.txt")
    expect(shallow.files).toHaveLength(50)
    expect(shallow.truncated).toBe(true)
  })

  it("stops after maxDirectories directories, however many empty folders a skill holds", async () => {
    const root = temporaryDirectory()
    writeTree(root, { "SKILL.md": skill("folders"), "zz/last.txt": "x" })
    for (let index = 0; index < 500; index++) mkdirSync(join(root, `empty-${String(index).padStart(3, "0")}`, "inner"), { recursive: true })
    const skillInfo = await loadOne(root)
    const bounded = await readSkill(skillInfo)
    // The skill's own directory and 99 of the 501 below it: `zz` comes last and is not reached.
    expect(bounded).toMatchObject({ files: [], truncated: true })
    const wider = await readSkill(skillInfo, { maxDirectories: 2000, maxDepth: 1 })
    expect(wider).toMatchObject({ files: [{ path: "zz/last.txt", bytes: 1 }], truncated: true })
  })

  it("lists a link to a directory without walking it, so a loop or a link out of the skill costs nothing", async () => {
    const root = temporaryDirectory()
    const outside = temporaryDirectory()
    writeTree(root, { "SKILL.md": skill("linked") })
    writeTree(outside, { "secret/a.txt": "x", "secret/b.txt": "y" })
    symlinkSync(root, join(root, "loop"))
    symlinkSync(join(outside, "secret"), join(root, "elsewhere"))
    symlinkSync(join(root, "missing-target"), join(root, "dangling"))
    mkdirSync(join(root, "empty"))
    const contents = await readSkill(await loadOne(root))
    expect(contents.files.map((file) => file.path)).toEqual(["elsewhere", "loop"])
    expect(contents.truncated).toBe(false)
  })
})
