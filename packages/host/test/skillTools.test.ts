import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Effect } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { collectingChannel, defaultSkillSources, makeHost } from "../src/index.js"

const directories: Array<string> = []
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true })
})

const temporary = (): string => {
  const directory = mkdtempSync(join(tmpdir(), "host-skill-tools-"))
  directories.push(directory)
  return directory
}

const writeSkill = (root: string, name: string, description: string, body: string) => {
  mkdirSync(join(root, name), { recursive: true })
  writeFileSync(join(root, name, "SKILL.md"), `---\nname: ${name}\ndescription: ${description}\n---\n${body}`)
}

/** Runs `code` in code mode over a host whose roots are `project` then `user`, both with a `pdf` skill. */
const runInHost = (code: string) => {
  const project = temporary()
  const user = temporary()
  writeSkill(project, "pdf", "Merge and split PDF files.", "# project pdf\n")
  writeSkill(project, "weather", "Get the weather forecast for a city.", "# weather\n")
  writeSkill(user, "pdf", "The user's own PDF notes.", "# user pdf\n")
  return Effect.runPromise(
    Effect.gen(function* () {
      const host = yield* makeHost({
        skillSources: [
          { path: project, name: "project" },
          { path: user, name: "user" }
        ],
        catalog: { watch: false },
        goals: { store: "file", root: join(temporary(), "goals") }
      })
      return yield* host.execute(code, { channel: collectingChannel("test") })
    }).pipe(Effect.scoped, Effect.provide(NodeServices.layer))
  )
}

describe("the skills namespace of code mode", () => {
  it("lists shadowed skills by address and reads either one", async () => {
    const run = await runInHost(`
      const listed = await skills.list()
      const mine = await skills.read({ name: "user:pdf" })
      const winner = await skills.read({ name: "pdf" })
      return { listed: listed.map((skill) => [skill.address, skill.shadowedBy !== undefined]), bodies: [winner.body, mine.body] }`)
    expect(run).toMatchObject({
      status: "completed",
      result: {
        listed: [
          ["project:pdf", false],
          ["project:weather", false],
          ["user:pdf", true]
        ],
        bodies: ["# project pdf\n", "# user pdf\n"]
      }
    })
  })

  it("suggests without arming and renders the catalog within a budget", async () => {
    const run = await runInHost(`
      const suggested = await skills.suggest({ prompt: "what's the weather in Oslo?" })
      const armed = await skills.arm({ prompt: "what's the weather in Oslo?" })
      const block = await skills.catalog({ maxChars: 2000 })
      let refusal
      try { await skills.catalog({ maxChars: 50 }) } catch (error) { refusal = [error._tag, error.minimum > 50] }
      return { suggested: suggested.map(({ name, terms }) => [name, terms]), armed, names: [...block.matchAll(/<name>([^<]+)<\\/name>/g)].map((m) => m[1]), refusal }`)
    expect(run).toMatchObject({
      status: "completed",
      result: { suggested: [["weather", ["weather"]]], armed: [], names: ["pdf", "weather", "user:pdf"], refusal: ["CatalogBudgetTooSmall", true] }
    })
  })
})

describe("defaultSkillSources", () => {
  it("reads the project's roots, then the user's, in each host's place, named for their addresses", () => {
    expect(defaultSkillSources({ cwd: "/work/app", home: "/home/ana", env: {} })).toEqual(
      [
        ["project", "/work/app/.armory/skills"],
        ["project-claude", "/work/app/.claude/skills"],
        ["project-agents", "/work/app/.agents/skills"],
        ["project-opencode", "/work/app/.opencode/skills"],
        ["user", "/home/ana/.armory/skills"],
        ["user-claude", "/home/ana/.claude/skills"],
        ["user-agents", "/home/ana/.agents/skills"],
        ["user-opencode", "/home/ana/.config/opencode/skills"],
        ["user-codex", "/home/ana/.codex/skills"]
      ].map(([name, path]) => ({ path, name, optional: true }))
    )
  })

  it("puts the user's roots first with personal precedence, Claude Code's rule", () => {
    expect(defaultSkillSources({ cwd: "/work/app", home: "/home/ana", env: {}, precedence: "personal" }).map((source) => (typeof source === "string" ? source : source.name))).toEqual([
      "user",
      "user-claude",
      "user-agents",
      "user-opencode",
      "user-codex",
      "project",
      "project-claude",
      "project-agents",
      "project-opencode"
    ])
  })

  it("follows CODEX_HOME and XDG_CONFIG_HOME, and reads a root once when the project is the home directory", () => {
    const sources = defaultSkillSources({ cwd: "/home/ana", home: "/home/ana", env: { CODEX_HOME: "/opt/codex", XDG_CONFIG_HOME: "/home/ana/.cfg" } })
    expect(sources.map((source) => (typeof source === "string" ? source : source.name))).toEqual([
      "project",
      "project-claude",
      "project-agents",
      "project-opencode",
      "user-opencode",
      "user-codex"
    ])
    expect(sources.slice(-2).map((source) => (typeof source === "string" ? source : source.path))).toEqual([
      "/home/ana/.cfg/opencode/skills",
      "/opt/codex/skills"
    ])
  })
})
