import { spawn, spawnSync } from "node:child_process"
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { describeRequiring, hostExecutable } from "@armory/config/test-components"
import { afterEach, expect, it } from "vitest"
import { armory } from "../support/armory.js"
import { functionOutputs, type ResponsesAnswer, type ResponsesRequest, startResponsesApi } from "./support/responsesApi.js"

const bin = join(import.meta.dirname, "..", "..", "dist", "bin.js")
const RUN_TIMEOUT_MS = 120_000

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).toReversed()) await cleanup()
})

const temporary = (prefix: string): string => {
  const directory = mkdtempSync(join(tmpdir(), prefix))
  cleanups.push(() => rmSync(directory, { recursive: true, force: true }))
  return directory
}

const write = (root: string, relative: string, text: string) => {
  mkdirSync(dirname(join(root, relative)), { recursive: true })
  writeFileSync(join(root, relative), text)
}

/** A project with a keyword skill and a broken one, set up with `armory init codex --command armory` as a user runs it. */
const project = async () => {
  const root = temporary("armory-codex-project-")
  write(root, ".armory/skills/pdf-tools/SKILL.md", "---\nname: pdf-tools\ndescription: Merge and split PDF files.\nautoInject:\n  keywords: [pdf]\n---\n# PDF tools\n")
  write(root, ".armory/skills/broken/SKILL.md", "---\nname: broken\ndescription: [unclosed\n---\n")
  const shims = temporary("armory-codex-bin-")
  write(shims, "armory", `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} "$@"\n`)
  chmodSync(join(shims, "armory"), 0o755)
  const init = await armory(["init", "codex", "--command", "armory"], { cwd: root })
  expect(init.code).toBe(0)
  return { root, shims }
}

/**
 * `codex exec` in `cwd` against the scripted model. The user's own Codex configuration (a home of
 * its own) names the model provider and trusts the project, as a user's does; nothing else is set.
 */
const runCodex = async (options: { readonly cwd: string; readonly trusted: string; readonly shims: string; readonly prompt: string; readonly script: ReadonlyArray<ResponsesAnswer | ((request: ResponsesRequest) => ResponsesAnswer)> }) => {
  const api = await startResponsesApi((request, index) => {
    const step = options.script[index] ?? { text: "nothing more to do" }
    return typeof step === "function" ? step(request) : step
  })
  cleanups.push(() => api.close())
  const home = temporary("armory-codex-home-")
  const codexHome = join(home, ".codex")
  write(
    codexHome,
    "config.toml",
    [
      'model = "scripted-model"',
      'model_provider = "scripted"',
      "check_for_update_on_startup = false",
      "[model_providers.scripted]",
      'name = "Scripted"',
      `base_url = ${JSON.stringify(api.url)}`,
      'wire_api = "responses"',
      'env_key = "SCRIPTED_API_KEY"',
      "[analytics]",
      "enabled = false",
      "[feedback]",
      "enabled = false",
      "[features]",
      "plugins = false",
      `[projects.${JSON.stringify(options.trusted)}]`,
      'trust_level = "trusted"',
      ""
    ].join("\n")
  )
  const env = { PATH: `${options.shims}:${process.env["PATH"] ?? "/usr/bin:/bin"}`, HOME: home, CODEX_HOME: codexHome, SCRIPTED_API_KEY: "scripted" }
  const child = spawn(hostExecutable("codex"), ["exec", "--json", "--skip-git-repo-check", options.prompt], { cwd: options.cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true })
  let stdout = ""
  let stderr = ""
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
  const timer = setTimeout(() => process.kill(-(child.pid ?? 0), "SIGKILL"), RUN_TIMEOUT_MS)
  const code = await new Promise<number | null>((resolve) => child.on("exit", (exitCode) => resolve(exitCode)))
  clearTimeout(timer)
  // The host asked the model API for nothing else.
  expect(api.requests.filter((request) => request.path !== "/v1/responses")).toEqual([])
  return { code, stdout, stderr, requests: api.requests.flatMap((request) => (request.body === undefined ? [] : [request.body])) }
}

const armoryTools = (request: ResponsesRequest | undefined): ReadonlyArray<string> =>
  (request?.tools ?? []).flatMap((tool) =>
    tool["type"] === "namespace" && tool["name"] === "mcp__armory" && Array.isArray(tool["tools"]) ? (tool["tools"] as ReadonlyArray<{ name: string }>).map((inner) => inner.name) : []
  )

const armoryCall = (tool: string, input: Record<string, unknown> = {}): ResponsesAnswer => ({ namespace: "mcp__armory", tool, input })

const ledgerKinds = (root: string): ReadonlyArray<string> =>
  readFileSync(join(root, ".armory", "goals", "ledger.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => (JSON.parse(line) as { kind: string }).kind)

describeRequiring("hosts", "Codex set up with `armory init codex`", () => {
  it("offers Armory's tools in the first request, runs them without asking, through the goal gate and code mode", async () => {
    const { root, shims } = await project()
    let criterionId = ""
    const run = await runCodex({
      cwd: root,
      trusted: root,
      shims,
      prompt: "Merge the two pdf reports \u202E and ship the export",
      script: [
        armoryCall("goal_set", { objective: "Ship the export" }),
        armoryCall("goal_add_criterion", { scenario: "the export works", qaChannel: "cli", testRef: "export.test.ts" }),
        (request) => {
          const added = functionOutputs(request).at(-1) ?? ""
          criterionId = /"id":"([^"]+)"/.exec(added)?.[1] ?? ""
          return armoryCall("goal_complete")
        },
        () => armoryCall("goal_evidence", { criterionId, kind: "green", ref: "export.test.ts" }),
        () => armoryCall("goal_evidence", { criterionId, kind: "scenario", ref: "ran the export by hand" }),
        () => armoryCall("goal_criterion_status", { criterionId, status: "pass" }),
        armoryCall("goal_complete"),
        armoryCall("execute", { code: 'console.log("logged"); await channel.send({ text: "hello from code" }); return 6 * 7' }),
        { text: "All done." }
      ]
    })
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: expect.any(String) })
    expect(run.stdout).toContain("All done.")
    // `required = true`: Codex waited for Armory, so its tools are in the very first request.
    expect(armoryTools(run.requests[0])).toEqual(expect.arrayContaining(["goal_set", "goal_status", "goal_complete", "execute", "skills_list"]))
    // AGENTS.md carries the project's skills Codex does not list itself, with what arms each.
    const firstText = JSON.stringify(run.requests[0])
    expect(firstText).toContain("`pdf-tools`: Merge and split PDF files. Use it when the task mentions `pdf`. (.armory/skills/pdf-tools/SKILL.md)")
    const outputs = functionOutputs(run.requests.at(-1) ?? { model: "", input: [] })
    expect(outputs).toHaveLength(8)
    // `default_tools_approval_mode = "approve"`: no call was refused for want of an approval.
    expect(outputs.join("\n")).not.toContain("requires approval")
    expect(outputs[2]).toContain(`completion refused: 1 unmet (${criterionId} owes pass, green, scenario)`)
    expect(outputs[6]).toContain('"status":"complete"')
    expect(outputs[7]).toContain('"result":42')
    expect(outputs[7]).toContain("[log] logged")
    expect(outputs[7]).toContain("hello from code")
    expect(ledgerKinds(root)).toContain("goal_completed")
  }, RUN_TIMEOUT_MS * 2)

  it("from a subfolder of the repository works on the project's goal", async () => {
    const { root, shims } = await project()
    expect(spawnSync("git", ["init", "-q"], { cwd: root }).status).toBe(0)
    expect((await armory(["goal", "set", "--objective", "The project's goal"], { cwd: root })).code).toBe(0)
    const subfolder = join(root, "packages", "app")
    mkdirSync(subfolder, { recursive: true })
    const run = await runCodex({ cwd: subfolder, trusted: root, shims, prompt: "what is the goal?", script: [armoryCall("goal_status"), { text: "It is the project's goal." }] })
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: expect.any(String) })
    expect(functionOutputs(run.requests.at(-1) ?? { model: "", input: [] }).at(-1)).toContain("The project's goal")
  }, RUN_TIMEOUT_MS * 2)
})
