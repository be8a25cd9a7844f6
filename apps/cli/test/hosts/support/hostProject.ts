import { spawn, spawnSync } from "node:child_process"
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { afterEach, expect } from "vitest"
import { armory } from "../../support/armory.js"

const bin = join(import.meta.dirname, "..", "..", "..", "dist", "bin.js")

/** How long one host run may take before it is killed (its process group) and the test fails. */
export const HOST_RUN_TIMEOUT_MS = 120_000

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).toReversed()) await cleanup()
})

/** Runs `cleanup` after the current test, newest first. */
export const afterThisTest = (cleanup: () => Promise<void> | void): void => {
  cleanups.push(cleanup)
}

/** A fresh directory, removed after the current test. */
export const temporary = (prefix: string): string => {
  const directory = mkdtempSync(join(tmpdir(), prefix))
  afterThisTest(() => rmSync(directory, { recursive: true, force: true }))
  return directory
}

export const writeFile = (root: string, relative: string, text: string): void => {
  mkdirSync(dirname(join(root, relative)), { recursive: true })
  writeFileSync(join(root, relative), text)
}

const examples = join(import.meta.dirname, "..", "..", "..", "..", "..", "examples", "skills")

/**
 * The skills every host project has: one a keyword arms; the bundled comment checker, which an edit
 * arms only when it adds a comment, and browser drive, which only a request for a browser arms; and
 * one that cannot load.
 */
export const PROJECT_SKILLS = {
  ".armory/skills/pdf-tools/SKILL.md": "---\nname: pdf-tools\ndescription: Merge and split PDF files.\nautoInject:\n  keywords: [pdf]\n---\n# PDF tools\n\nMerge with `qpdf --empty --pages a.pdf b.pdf -- out.pdf`.\n",
  ".armory/skills/comment-checker/SKILL.md": readFileSync(join(examples, "comment-checker", "SKILL.md"), "utf8"),
  ".armory/skills/browser-drive/SKILL.md": readFileSync(join(examples, "browser-drive", "SKILL.md"), "utf8"),
  ".armory/skills/broken/SKILL.md": "---\nname: broken\ndescription: [unclosed\n---\n"
} as const

/** The prompt of a host's main run: a passing mention of a browser (no request for one), and a task about PDFs. */
export const MAIN_PROMPT = "I read an article about browser history. Merge the two pdf reports \u202E\u0007 and ship the export"

/** The comment the main run's second edit adds to `src/a.ts`, which arms the comment checker. */
export const ADDED_COMMENT = "// One, not zero: the count starts at the header row."

/** The comment checker's own words, which reach the model when it arms. */
export const COMMENT_CHECKER_TEXT = "Review only those, in the file the hook named"

/**
 * A project as a user has it — the skills above, and `armory` on PATH (the installed CLI) — set up
 * with `armory init <host> --command armory`, exactly as a user runs it. `shims` is the folder to put
 * first on the host's PATH.
 */
export const initProject = async (host: "claude-code" | "opencode" | "codex", prefix: string) => {
  const root = temporary(`${prefix}-project-`)
  for (const [relative, text] of Object.entries(PROJECT_SKILLS)) writeFile(root, relative, text)
  const shims = temporary(`${prefix}-bin-`)
  writeFile(shims, "armory", `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} "$@"\n`)
  chmodSync(join(shims, "armory"), 0o755)
  const init = await armory(["init", host, "--command", "armory"], { cwd: root })
  expect({ code: init.code, stderr: init.stderr }).toEqual({ code: 0, stderr: expect.any(String) })
  return { root, shims }
}

/** The PATH a host runs with: the shims first, then the test's own (where node and npm are). */
export const hostPath = (shims: string): string => `${shims}:${process.env["PATH"] ?? "/usr/bin:/bin"}`

/**
 * Runs a host's binary in its own process group with only `env`; the group is killed when the run
 * outlives {@link HOST_RUN_TIMEOUT_MS}, which the test then sees as a null exit code.
 */
export const runHostProcess = async (command: string, args: ReadonlyArray<string>, options: { readonly cwd: string; readonly env: Record<string, string> }) => {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"], detached: true })
  let stdout = ""
  let stderr = ""
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
  const timer = setTimeout(() => process.kill(-(child.pid ?? 0), "SIGKILL"), HOST_RUN_TIMEOUT_MS)
  const code = await new Promise<number | null>((resolve) => child.on("exit", (exitCode) => resolve(exitCode)))
  clearTimeout(timer)
  return { code, stdout, stderr }
}

/** The kinds of the events in the project's goal ledger, in order. */
export const ledgerKinds = (root: string): ReadonlyArray<string> =>
  readFileSync(join(root, ".armory", "goals", "ledger.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => (JSON.parse(line) as { kind: string }).kind)

/**
 * The model's side of the goal flow every host suite runs through Armory's MCP tools, in the
 * host's own call shape (`call(tool, input)`; `lastOutput(request)` reads the newest tool result's
 * text): set a goal, add a criterion, ask to complete (refused: nothing is proven), add the green and
 * scenario evidence, pass the criterion, complete, then one code-mode `execute` that logs, sends a
 * channel message and returns 42.
 */
export const goalFlow = <Request, Answer>(call: (tool: string, input?: Record<string, unknown>) => Answer, lastOutput: (request: Request) => string) => {
  let criterionId = ""
  const steps: ReadonlyArray<Answer | ((request: Request) => Answer)> = [
    call("goal_set", { objective: "Ship the export" }),
    call("goal_add_criterion", { scenario: "the export works", qaChannel: "cli", testRef: "export.test.ts" }),
    (request) => {
      criterionId = /"id":"([^"]+)"/.exec(lastOutput(request))?.[1] ?? ""
      return call("goal_complete")
    },
    () => call("goal_evidence", { criterionId, kind: "green", ref: "export.test.ts" }),
    () => call("goal_evidence", { criterionId, kind: "scenario", ref: "ran the export by hand" }),
    () => call("goal_criterion_status", { criterionId, status: "pass" }),
    call("goal_complete"),
    call("execute", { code: 'console.log("logged"); await channel.send({ text: "hello from code" }); return 6 * 7' })
  ]
  return {
    steps,
    /**
     * Checks the texts the model read back, one per step: the refusal names what is unmet, the
     * second completion succeeds and the ledger agrees, `execute`'s text carries the result, the
     * logs and the channel's message.
     */
    expectReadBack: (outputs: ReadonlyArray<string>, root: string) => {
      expect(criterionId).toMatch(/^c\d+$/)
      expect(outputs[2]).toContain(`completion refused: 1 unmet (${criterionId} owes pass, green, scenario)`)
      expect(outputs[6]).toContain('"status":"complete"')
      expect(outputs[7]).toContain('"status":"completed"')
      expect(outputs[7]).toContain('"result":42')
      expect(outputs[7]).toContain('"logs":["[log] logged"]')
      expect(outputs[7]).toContain("hello from code")
      expect(ledgerKinds(root)).toContain("goal_completed")
    }
  }
}

/** Makes the project a git repository with a goal set from its root, and answers a subfolder of it to start a host in. */
export const repositoryWithGoal = async (root: string): Promise<string> => {
  expect(spawnSync("git", ["init", "-q"], { cwd: root }).status).toBe(0)
  expect((await armory(["goal", "set", "--objective", "The project's goal"], { cwd: root })).code).toBe(0)
  const subfolder = join(root, "packages", "app")
  mkdirSync(subfolder, { recursive: true })
  return subfolder
}

/** How many times a request carries the goal snapshot's heading. */
export const snapshotMentions = (request: unknown): number => JSON.stringify(request).split("Armory goal (armory://goals/snapshot)").length - 1
