import { spawnSync } from "node:child_process"
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import { describe, expect, it } from "@effect/vitest"
import { Effect, FileSystem, Layer, PlatformError } from "effect"
import { findSkill, load, loadSkills, MAX_SKILL_FILE_BYTES, sourceNames } from "../src/index.js"
import { NodeLayer, skill, temporaryDirectory, withCapturedLogs, writeTree } from "./support.js"

describe("load", () => {
  it.effect("loads every SKILL.md beneath a directory, in path order, with its origin", () =>
    Effect.gen(function* () {
      const root = temporaryDirectory()
      writeTree(root, {
        "b/SKILL.md": skill("b"),
        "a/nested/deeper/SKILL.md": skill("deeper"),
        "a/SKILL.md": skill("a"),
        "a-b/SKILL.md": skill("a-b"),
        "a/README.md": "not a skill",
        "c/skill.md": skill("wrong-case")
      })
      const report = yield* load([root])
      expect(report.skills.map(({ name, location, baseDirectory, source }) => ({ name, location, baseDirectory, source }))).toEqual([
        { name: "a", location: join(root, "a/SKILL.md"), baseDirectory: join(root, "a"), source: `directory:${root}` },
        { name: "deeper", location: join(root, "a/nested/deeper/SKILL.md"), baseDirectory: join(root, "a/nested/deeper"), source: `directory:${root}` },
        { name: "a-b", location: join(root, "a-b/SKILL.md"), baseDirectory: join(root, "a-b"), source: `directory:${root}` },
        { name: "b", location: join(root, "b/SKILL.md"), baseDirectory: join(root, "b"), source: `directory:${root}` }
      ])
      expect(report.skills[0]?.body).toBe("# a\n")
      expect(report).toMatchObject({ dropped: [], ignoredAutoInject: [], shadowed: [], warnings: [] })
    }).pipe(Effect.provide(NodeLayer))
  )

  it.effect("loads a skill whose name does not match its directory, or whose metadata needed recovering, with warnings", () =>
    Effect.gen(function* () {
      const root = temporaryDirectory()
      writeTree(root, { "pdf-tools/SKILL.md": skill("pdf"), "docx/SKILL.md": skill("docx", "metadata:\n  version: 2.10\n") })
      const report = yield* load([root])
      expect(report.skills.map(({ name }) => name)).toEqual(["docx", "pdf"])
      expect(report.skills[0]?.metadata).toEqual({ version: "2.10" })
      expect(report.warnings).toEqual([
        { file: join(root, "docx/SKILL.md"), reason: 'metadata values kept as text, as Agent Skills metadata maps strings to strings: "version" ("2.10")' },
        { file: join(root, "pdf-tools/SKILL.md"), reason: 'name "pdf" does not match its directory "pdf-tools"' }
      ])
    }).pipe(Effect.provide(NodeLayer))
  )

  it.effect("resolves relative sources against cwd and accepts a file as a source", () =>
    Effect.gen(function* () {
      const root = temporaryDirectory()
      writeTree(root, { "skills/one/SKILL.md": skill("one"), "single.md": skill("single") })
      const report = yield* load(["skills", "single.md"], { cwd: root })
      expect(report.skills.map(({ name, source, baseDirectory }) => ({ name, source, baseDirectory }))).toEqual([
        { name: "one", source: `directory:${join(root, "skills")}`, baseDirectory: join(root, "skills/one") },
        { name: "single", source: `file:${join(root, "single.md")}`, baseDirectory: root }
      ])
    }).pipe(Effect.provide(NodeLayer))
  )

  it.effect("lets the earlier source win a name clash and reports the loser as shadowed", () =>
    Effect.gen(function* () {
      const project = temporaryDirectory()
      const user = temporaryDirectory()
      writeTree(project, { "review/SKILL.md": skill("review", "", "project\n") })
      writeTree(user, { "review/SKILL.md": skill("review", "", "user\n"), "other/SKILL.md": skill("other") })
      const report = yield* load([
        { path: project, name: "project" },
        { path: user, name: "user" }
      ])
      expect(report.skills.map(({ name, address, body }) => [name, address, body])).toEqual([
        ["review", "project:review", "project\n"],
        ["other", "user:other", "# other\n"]
      ])
      expect(report.shadowed).toMatchObject([
        { name: "review", file: join(user, "review/SKILL.md"), by: join(project, "review/SKILL.md"), address: "user:review", skill: { body: "user\n" } }
      ])
      expect(report.warnings).toEqual([])
      // The loser stays reachable by its address; the bare name is the winner's.
      expect(findSkill(report, "user:review")?.body).toBe("user\n")
      expect(findSkill(report, "review")?.body).toBe("project\n")
      expect(findSkill(report, "project:review")?.body).toBe("project\n")
      expect(findSkill(report, "user:other")?.name).toBe("other")
      expect(findSkill(report, "elsewhere:review")).toBeUndefined()
    }).pipe(Effect.provide(NodeLayer))
  )

  it.effect("within one directory, the first path in order wins a name clash", () =>
    Effect.gen(function* () {
      const root = temporaryDirectory()
      writeTree(root, { "z/SKILL.md": skill("same", "", "z\n"), "m/SKILL.md": skill("same", "", "m\n") })
      const report = yield* load([root])
      expect(report.skills.map(({ body }) => body)).toEqual(["m\n"])
      expect(report.shadowed).toMatchObject([{ name: "same", file: join(root, "z/SKILL.md"), by: join(root, "m/SKILL.md") }])
      // The clash is inside one source, so the loaded skill carries a warning that a check fails on.
      expect(report.warnings).toContainEqual({
        file: join(root, "m/SKILL.md"),
        reason: `name "same" is declared again by ${join(root, "z/SKILL.md")} in the same source, which is shadowed`
      })
    }).pipe(Effect.provide(NodeLayer))
  )

  it.effect("a malformed document costs only itself", () =>
    Effect.gen(function* () {
      const root = temporaryDirectory()
      writeTree(root, {
        "good/SKILL.md": skill("good"),
        "bad/SKILL.md": skill("bad", "slash: yes please\n"),
        "loose/SKILL.md": skill("loose", "autoInject:\n  keywords: pdf\n")
      })
      const report = yield* load([root])
      expect(report.skills.map(({ name }) => name)).toEqual(["good", "loose"])
      expect(report.dropped).toEqual([
        { file: join(root, "bad/SKILL.md"), reason: 'frontmatter rejected: at ["slash"]: Expected boolean, actual "yes please"' }
      ])
      expect(report.ignoredAutoInject).toEqual([
        { file: join(root, "loose/SKILL.md"), reason: 'at ["autoInject"]["keywords"]: Expected array, actual "pdf"' }
      ])
    }).pipe(Effect.provide(NodeLayer))
  )

  it.effect("logs one warning per load with every reason in its text", () =>
    Effect.gen(function* () {
      const root = temporaryDirectory()
      writeTree(root, {
        "bad/SKILL.md": skill("bad", "slash: yes please\n"),
        "good/SKILL.md": skill("good"),
        "loose/SKILL.md": skill("loose", "autoInject:\n  keywords: [3]\n")
      })
      const [, logs] = yield* withCapturedLogs(load([root]))
      expect(logs).toEqual([
        {
          level: "Warn",
          text: [
            `skill-loader dropped 1 of 3 skill documents from directory:${root} (loaded 2, ignoredAutoInject 1):`,
            `  ${root}/bad/SKILL.md: frontmatter rejected: at ["slash"]: Expected boolean, actual "yes please"`,
            `  ${root}/loose/SKILL.md: autoInject ignored: at ["autoInject"]["keywords"][0]: Expected string, actual 3`
          ].join("\n")
        }
      ])
    }).pipe(Effect.provide(NodeLayer))
  )

  it.effect("names shadowed skills and every source in the warning, and logs nothing for a clean load", () =>
    Effect.gen(function* () {
      const first = temporaryDirectory()
      const second = temporaryDirectory()
      writeTree(first, { "x/SKILL.md": skill("x") })
      writeTree(second, { "x/SKILL.md": skill("x") })
      const [, clean] = yield* withCapturedLogs(load([first]))
      expect(clean).toEqual([])
      const [, logs] = yield* withCapturedLogs(load([first, second]))
      expect(logs.map(({ text }) => text)).toEqual([
        [
          `skill-loader dropped 0 of 2 skill documents from directory:${first}, directory:${second} (loaded 1, ignoredAutoInject 0, shadowed 1):`,
          `  ${second}/x/SKILL.md: shadowed: the name "x" is already loaded from ${first}/x/SKILL.md`
        ].join("\n")
      ])
    }).pipe(Effect.provide(NodeLayer))
  )

  it.effect("surfaces URL globs whose host ends in a wildcard, in the report and in the warning", () =>
    Effect.gen(function* () {
      const root = temporaryDirectory()
      writeTree(root, {
        "docs/SKILL.md": skill("docs", 'autoInject:\n  url: ["docs.google.com/document/**", "docs.google.com*/**"]\n'),
        "safe/SKILL.md": skill("safe", 'autoInject:\n  url: ["*.example.com/**"]\n')
      })
      const [report, logs] = yield* withCapturedLogs(load([root]))
      expect(report.skills.map((loaded) => loaded.name)).toEqual(["docs", "safe"])
      expect(report.warnings).toEqual([
        {
          file: `${root}/docs/SKILL.md`,
          reason: expect.stringMatching(/^risky glob "docs\.google\.com\*\/\*\*": .*docs\.google\.com\.evil\.example/)
        }
      ])
      expect(logs.map(({ text }) => text.split("\n")[0])).toEqual([
        `skill-loader dropped 0 of 2 skill documents from directory:${root} (loaded 2, ignoredAutoInject 0, warnings 1):`
      ])
      expect(logs[0]?.text).toContain(`${root}/docs/SKILL.md: risky glob "docs.google.com*/**"`)
    }).pipe(Effect.provide(NodeLayer))
  )

  it.effect("reports a missing source unless it is optional", () =>
    Effect.gen(function* () {
      const root = temporaryDirectory()
      const report = yield* load([join(root, "absent"), { path: join(root, "default-location"), optional: true }])
      expect(report).toEqual({ skills: [], dropped: [{ file: join(root, "absent"), reason: "source not found" }], ignoredAutoInject: [], shadowed: [], warnings: [] })
    }).pipe(Effect.provide(NodeLayer))
  )

  it.effect("follows symbolic links without looping and searches a directory reached twice once", () =>
    Effect.gen(function* () {
      const root = temporaryDirectory()
      writeTree(root, { "real/SKILL.md": skill("real") })
      symlinkSync(root, join(root, "real/loop-to-root"))
      symlinkSync(join(root, "real"), join(root, "second-way-in"))
      mkdirSync(join(root, "self"))
      symlinkSync(join(root, "self"), join(root, "self/again"))
      const report = yield* load([root])
      expect(report.skills.map(({ location }) => location)).toEqual([join(root, "real/SKILL.md")])
      expect(report.dropped).toEqual([])
    }).pipe(Effect.provide(NodeLayer))
  )

  it.effect("lists a skill folder linked into two roots once, from the earlier root, as the hosts do", () =>
    Effect.gen(function* () {
      const home = temporaryDirectory()
      writeTree(home, { ".agents/skills/review/SKILL.md": skill("review"), ".agents/skills/pdf/SKILL.md": skill("pdf"), ".claude/skills/own/SKILL.md": skill("own") })
      // The usual setup: one skill folder linked into Claude Code's root, and a whole root linked to another.
      symlinkSync(join(home, ".agents/skills/review"), join(home, ".claude/skills/review"))
      symlinkSync(join(home, ".agents/skills"), join(home, "opencode-skills"))
      const report = yield* load([join(home, ".claude/skills"), join(home, ".agents/skills"), join(home, "opencode-skills")])
      expect(report.skills.map(({ name, location }) => [name, location])).toEqual([
        ["own", join(home, ".claude/skills/own/SKILL.md")],
        ["review", join(home, ".claude/skills/review/SKILL.md")],
        ["pdf", join(home, ".agents/skills/pdf/SKILL.md")]
      ])
      expect(report.shadowed).toEqual([])
      expect(report.dropped).toEqual([])
    }).pipe(Effect.provide(NodeLayer))
  )

  it.effect("loads a SKILL.md that is a symbolic link to a file", () =>
    Effect.gen(function* () {
      const root = temporaryDirectory()
      writeTree(root, { "shared/skill.md": skill("linked"), "linked/.keep": "" })
      symlinkSync(join(root, "shared/skill.md"), join(root, "linked/SKILL.md"))
      const report = yield* load([root])
      expect(report.skills.map(({ name, location }) => [name, location])).toEqual([["linked", join(root, "linked/SKILL.md")]])
    }).pipe(Effect.provide(NodeLayer))
  )

  it.effect("turns a file the system refuses to read into a reason", () => {
    const root = temporaryDirectory()
    writeTree(root, { "locked/SKILL.md": skill("locked"), "open/SKILL.md": skill("open") })
    const locked = join(root, "locked/SKILL.md")
    // Tests may run as root, for whom chmod 000 still reads: the file system's answer is what matters,
    // so the real one is wrapped to answer this file with EACCES, the error an unprivileged reader gets.
    chmodSync(locked, 0o000)
    const deniedFileSystem = Layer.effect(
      FileSystem.FileSystem,
      Effect.gen(function* () {
        const fs = yield* FileSystem.FileSystem
        return {
          ...fs,
        readFile: (file: string) =>
          file === locked
            ? Effect.fail(
                PlatformError.systemError({ _tag: "PermissionDenied", module: "FileSystem", method: "readFile", pathOrDescriptor: file, description: "EACCES: permission denied" })
              )
            : fs.readFile(file)
        }
      })
    ).pipe(Layer.provide(NodeFileSystem.layer))
    return Effect.gen(function* () {
      const report = yield* load([root])
      expect(report.skills.map(({ name }) => name)).toEqual(["open"])
      expect(report.dropped).toEqual([{ file: locked, reason: "unreadable: PermissionDenied (EACCES: permission denied)" }])
    }).pipe(Effect.provide(Layer.mergeAll(deniedFileSystem, NodePath.layer)))
  })

  it.effect("never reads a file that stat shows is over 1 MiB", () => {
    const root = temporaryDirectory()
    writeTree(root, { "huge/SKILL.md": skill("huge", "", "b".repeat(MAX_SKILL_FILE_BYTES)), "small/SKILL.md": skill("small") })
    const read: Array<string> = []
    const recordingFileSystem = Layer.effect(
      FileSystem.FileSystem,
      Effect.gen(function* () {
        const fs = yield* FileSystem.FileSystem
        return { ...fs, readFile: (file: string) => Effect.sync(() => read.push(file)).pipe(Effect.andThen(fs.readFile(file))) }
      })
    ).pipe(Layer.provide(NodeFileSystem.layer))
    return Effect.gen(function* () {
      const report = yield* load([root])
      expect(report.dropped).toEqual([
        { file: join(root, "huge/SKILL.md"), reason: expect.stringMatching(/^file too large: 10486\d\d bytes, over the 1048576-byte limit$/) }
      ])
      expect(read).toEqual([join(root, "small/SKILL.md")])
    }).pipe(Effect.provide(Layer.mergeAll(recordingFileSystem, NodePath.layer)))
  })

  it("has a Promise form that needs no Effect runtime", async () => {
    const root = temporaryDirectory()
    writeTree(root, { "p/SKILL.md": skill("promised") })
    writeFileSync(join(root, "p/notes.txt"), "ignored")
    const report = await loadSkills([root])
    expect(report.skills.map(({ name }) => name)).toEqual(["promised"])
  })

  it("writes nothing to stdout or stderr from the Promise form, and hands the warning to a logger it is given", () => {
    const root = temporaryDirectory()
    writeTree(root, { "good/SKILL.md": skill("good"), "bad/SKILL.md": skill("bad", "slash: yes please\n") })
    // A real process importing the built package, as a hook that speaks JSON on stdout would.
    const script = `
      import { loadSkills } from ${JSON.stringify(pathToFileURL(join(import.meta.dirname, "..", "dist", "index.js")).href)}
      const quiet = await loadSkills([${JSON.stringify(root)}])
      const warned = []
      await loadSkills([${JSON.stringify(root)}], { logger: { warn: (message) => warned.push(message) } })
      process.exitCode = quiet.dropped.length === 1 && warned.length === 1 && warned[0].includes("bad/SKILL.md: frontmatter rejected") ? 0 : 3`
    const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" })
    expect({ status: child.status, stdout: child.stdout, stderr: child.stderr }).toEqual({ status: 0, stdout: "", stderr: "" })
  })

  it.effect("stops a source's search at maxDepth and names what was left unsearched", () =>
    Effect.gen(function* () {
      const root = temporaryDirectory()
      writeTree(root, {
        "a/b/c/d/e/f/deepest/SKILL.md": skill("deepest"),
        "a/b/c/d/e/six/SKILL.md": skill("six"),
        "a/b/c/d/e/f/g/seven/SKILL.md": skill("seven")
      })
      const report = yield* load([root])
      // `six` is six directories below the source; `deepest` is seven, past the default bound.
      expect(report.skills.map(({ name }) => name)).toEqual(["six"])
      expect(report.warnings).toEqual([
        {
          file: root,
          reason: `search stopped at maxDepth 6: 2 directories 7 levels down were not searched, starting with ${JSON.stringify(join(root, "a/b/c/d/e/f/deepest"))}`
        }
      ])
      const deeper = yield* load([root], { maxDepth: 8 })
      expect(deeper.skills.map(({ name }) => name).toSorted()).toEqual(["deepest", "seven", "six"])
      expect(deeper.warnings).toEqual([])
    }).pipe(Effect.provide(NodeLayer))
  )

  it.effect("stops a source's search at maxDirectories, nearest directories first", () =>
    Effect.gen(function* () {
      const root = temporaryDirectory()
      writeTree(root, Object.fromEntries(Array.from({ length: 30 }, (_, index) => [`s${String(index).padStart(2, "0")}/SKILL.md`, skill(`s${String(index).padStart(2, "0")}`)])))
      const report = yield* load([root], { maxDirectories: 11 })
      // The source itself is one of the eleven directories listed.
      expect(report.skills).toHaveLength(10)
      expect(report.warnings).toEqual([
        {
          file: root,
          reason: `search stopped at maxDirectories 11: 20 directories at depth 1 and everything below depth 1 were not searched, starting with ${JSON.stringify(join(root, "s10"))}`
        }
      ])
      const invalid = yield* load([root], { maxDirectories: -1, maxDepth: 1.5 })
      expect(invalid.skills).toHaveLength(30)
      expect(invalid.warnings.map(({ file }) => file)).toEqual(["options.maxDepth", "options.maxDirectories"])
    }).pipe(Effect.provide(NodeLayer))
  )

  it("names each source for its skills' addresses, from the path unless one is given", () => {
    expect(
      sourceNames(
        ["/home/u/.claude/skills", "/proj/.armory/skills", "/vendor/anthropic", { path: "/x/skills", name: "mine" }, "/y/.claude/skills", "/pdf/SKILL.md", { path: "/z", name: "bad name" }],
        { cwd: "/" }
      )
    ).toEqual(["claude", "armory", "anthropic", "mine", "claude-2", "pdf", "z"])
  })
})
