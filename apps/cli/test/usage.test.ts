import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { DEFAULT_SKILL_ROOTS_TEXT } from "@armory/host/hooks"
import { describe, expect, it } from "vitest"
import { armory } from "./support/armory.js"

const scratch = mkdtempSync(join(tmpdir(), "armory-cli-usage-"))
const code = join(scratch, "one.js")
writeFileSync(code, "return 1")
const goals = join(scratch, "goals")
const missing = join(scratch, "no-such-skills")

/** Each mistake, the command the hint names, and what the one line must say. */
const mistakes: ReadonlyArray<readonly [string, ReadonlyArray<string>, string, RegExp]> = [
  ["a port out of range", ["serve", "--port", "99999"], "armory serve", /^--port must be 0\.\.65535, got 99999$/],
  ["a non-loopback host", ["serve", "--host", "0.0.0.0"], "armory serve", /^refusing to bind 0\.0\.0\.0: not a loopback address/],
  ["--allow-remote with a generated token", ["serve", "--host", "0.0.0.0", "--allow-remote"], "armory serve", /^--allow-remote needs a token/],
  ["a builtin as a global", ["exec", code, "--globals", "Math"], "armory exec", /^--globals: invalid global "Math": it would shadow a global of the guest realm/],
  ["a builtin as a global in the preview", ["instructions", "--globals", "Math"], "armory instructions", /^--globals: invalid global "Math"/],
  ["a timeout that is not positive", ["exec", code, "--timeout", "0"], "armory exec", /^--timeout must be a positive number of milliseconds, got 0$/],
  ["a criterion without separators", ["goal", "--root", goals, "set", "--objective", "x", "--criterion", "log in"], "armory goal set", /^--criterion "log in": expected "scenario\|channel\|test_ref", three parts separated by \|, got one \(no \|\)$/],
  ["a criterion with two parts", ["goal", "--root", goals, "set", "--objective", "x", "--criterion", "log in|browser"], "armory goal set", /^--criterion "log in\|browser": expected .*got two$/],
  ["a criterion with an unknown channel", ["goal", "--root", goals, "set", "--objective", "x", "--criterion", "log in|phone|t.ts"], "armory goal set", /^--criterion "log in\|phone\|t\.ts": the channel "phone" is not one of http, tmux, browser, computer, cli/],
  ["a criterion without a scenario", ["goal", "--root", goals, "set", "--objective", "x", "--criterion", " |cli|t.ts"], "armory goal set", /the scenario \(before the first \|\) is empty/],
  ["a criterion without a test", ["goal", "--root", goals, "set", "--objective", "x", "--criterion", "log in|cli| "], "armory goal set", /the test_ref \(after the second \|\) is empty/],
  ["a steering criterion that is malformed", ["goal", "--root", goals, "steer", "add one", "--kind", "add_criterion", "--evidence", "e", "--rationale", "r", "--criterion", "x|y"], "armory goal steer", /^--criterion "x\|y": expected/],
  ["a --dir that does not exist (arm)", ["arm", "hello", "--dir", missing], "armory arm", new RegExp(`^--dir ${missing}: no such file or directory`)],
  ["a --dir that does not exist (skills list)", ["skills", "list", "--dir", missing, "--json"], "armory skills list", /^--dir .*: no such file or directory/],
  ["a --dir that does not exist (exec)", ["exec", code, "--dir", missing], "armory exec", /^--dir .*: no such file or directory/],
  ["a --dir that does not exist (serve)", ["serve", "--dir", missing], "armory serve", /^--dir .*: no such file or directory/],
  ["a malformed database URL", ["goal", "--store", "pg", "--database-url", "mysql://x", "status"], "armory goal status", /^--database-url: the database URL is not a postgres:\/\/ URL$/],
  ["a schema that is not an identifier", ["goal", "--store", "pg", "--database-url", "postgres://x@127.0.0.1/db", "--database-schema", "A-b", "status"], "armory goal status", /^--database-schema: schema "A-b" is not a lower-case SQL identifier/],
  ["a missing argument", ["arm", "--json"], "armory arm", /^Missing required argument: prompt$/],
  ["an unknown flag", ["arm", "hi", "--bogus", "x"], "armory arm", /^Unrecognized flag: --bogus/],
  ["an unknown subcommand", ["goal", "frobnicate"], "armory goal", /^Unknown subcommand "frobnicate"/],
  ["an unknown subcommand with --help", ["frobnicate", "--help"], "armory", /^Unknown subcommand "frobnicate" for "armory"$/],
  ["an unknown nested subcommand with --help", ["goal", "--root", goals, "frobnicate", "-h"], "armory goal", /^Unknown subcommand "frobnicate" for "armory goal"$/],
  ["--wizard without a terminal", ["--wizard"], "armory", /^--wizard asks its questions on a terminal/]
]

describe("usage errors", () => {
  it.each(mistakes)("%s: exit 2, one line and the --help hint on stderr, nothing on stdout", async (_, args, command, reason) => {
    const run = await armory(args, { cwd: scratch })
    expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 2, stdout: "" })
    const lines = run.stderr.trimEnd().split("\n")
    expect(lines).toHaveLength(2)
    expect(lines[0]?.startsWith(`${command}: `)).toBe(true)
    expect(lines[0]?.slice(command.length + 2)).toMatch(reason)
    expect(lines[1]).toBe(`Run \`${command} --help\` for usage.`)
  })

  it("keeps --help on stdout, exit 0", async () => {
    for (const args of [["serve", "--help"], ["goal", "--root", goals, "set", "--help"], ["--log-level", "warn", "goal", "-h"]]) {
      const run = await armory(args)
      expect({ args, code: run.code, stderr: run.stderr }).toEqual({ args, code: 0, stderr: "" })
      expect(run.stdout).toMatch(/^USAGE$/m)
    }
  })
})

/** The lines of a help section (`ARGUMENTS`, `FLAGS`, `SUBCOMMANDS`): from its heading to the next blank line. */
const section = (help: string, heading: string): ReadonlyArray<string> => {
  const lines = help.split("\n")
  const start = lines.indexOf(heading)
  if (start < 0) return []
  const end = lines.findIndex((line, index) => index > start && line.trim() === "")
  return lines.slice(start + 1, end < 0 ? undefined : end)
}

/** An argument or flag line whose description is missing: its name and type, then nothing but a list of choices. */
const undescribed = (line: string): boolean => {
  const [, rest = ""] = /^\s+\S+(?:, -\w)?(?: (?:string|integer|number|choice|<[^>]*>))?(.*)$/.exec(line) ?? []
  return rest.replace(/\(choices: [^)]*\)/, "").trim() === ""
}

/** Every command's help, by its path, walking the subcommands from the root. */
const everyHelp = async (): Promise<ReadonlyMap<string, string>> => {
  const helps = new Map<string, string>()
  const visit = async (path: ReadonlyArray<string>): Promise<void> => {
    const help = (await armory([...path, "--help"])).stdout
    helps.set(["armory", ...path].join(" "), help)
    for (const line of section(help, "SUBCOMMANDS")) {
      const name = line.trim().split(/\s+/)[0]
      if (name !== undefined && name !== "") await visit([...path, name])
    }
  }
  await visit([])
  return helps
}

describe("help", () => {
  let helps: Promise<ReadonlyMap<string, string>> | undefined
  const walked = () => (helps ??= everyHelp())

  it("describes every argument and flag of every command", async () => {
    const unexplained: Array<string> = []
    for (const [command, help] of await walked()) {
      for (const heading of ["ARGUMENTS", "FLAGS"]) {
        for (const line of section(help, heading)) if (undescribed(line)) unexplained.push(`${command}: ${line.trim()}`)
      }
    }
    expect(unexplained).toEqual([])
  }, 120_000)

  it("names, wherever --dir is taken, the default skill roots a host reads", async () => {
    const dirFlags = [...(await walked())].flatMap(([command, help]) =>
      section(help, "FLAGS")
        .filter((line) => line.trim().startsWith("--dir "))
        .map((line) => [command, line.trim()] as const)
    )
    expect(dirFlags.length).toBeGreaterThan(4)
    expect(dirFlags.filter(([, line]) => !line.endsWith(`Default: ${DEFAULT_SKILL_ROOTS_TEXT}`))).toEqual([])
  }, 120_000)
})
