import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { spawnSync } from "node:child_process"
import { describeRequiring, hostExecutable } from "@armory/config/test-components"
import { expect, it } from "vitest"
import { armory } from "../support/armory.js"
import { afterThisTest, HOST_RUN_TIMEOUT_MS, hostPath, initProject, ledgerKinds, runHostProcess, temporary, writeFile } from "./support/hostProject.js"
import { functionOutputs, type ResponsesAnswer, type ResponsesRequest, startResponsesApi } from "./support/responsesApi.js"
import { scriptSteps } from "./support/scriptedApi.js"

const project = () => initProject("codex", "armory-codex")

/**
 * `codex exec` in `cwd` against the scripted model. The user's own Codex configuration (a home of
 * its own) names the model provider and trusts the project, as a user's does; nothing else is set.
 */
const runCodex = async (options: { readonly cwd: string; readonly trusted: string; readonly shims: string; readonly prompt: string; readonly script: ReadonlyArray<ResponsesAnswer | ((request: ResponsesRequest) => ResponsesAnswer)> }) => {
  const api = await startResponsesApi(scriptSteps(options.script, { text: "nothing more to do" }))
  afterThisTest(() => api.close())
  const home = temporary("armory-codex-home-")
  const codexHome = join(home, ".codex")
  writeFile(
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
  const env = { PATH: hostPath(options.shims), HOME: home, CODEX_HOME: codexHome, SCRIPTED_API_KEY: "scripted" }
  const { code, stdout, stderr } = await runHostProcess(hostExecutable("codex"), ["exec", "--json", "--skip-git-repo-check", options.prompt], { cwd: options.cwd, env })
  // The host asked the model API for nothing else.
  expect(api.requests.filter((request) => request.path !== "/v1/responses")).toEqual([])
  return { code, stdout, stderr, requests: api.requests.flatMap((request) => (request.body === undefined ? [] : [request.body])) }
}

const armoryTools = (request: ResponsesRequest | undefined): ReadonlyArray<string> =>
  (request?.tools ?? []).flatMap((tool) =>
    tool["type"] === "namespace" && tool["name"] === "mcp__armory" && Array.isArray(tool["tools"]) ? (tool["tools"] as ReadonlyArray<{ name: string }>).map((inner) => inner.name) : []
  )

const armoryCall = (tool: string, input: Record<string, unknown> = {}): ResponsesAnswer => ({ namespace: "mcp__armory", tool, input })

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
  }, HOST_RUN_TIMEOUT_MS * 2)

  it("from a subfolder of the repository works on the project's goal", async () => {
    const { root, shims } = await project()
    expect(spawnSync("git", ["init", "-q"], { cwd: root }).status).toBe(0)
    expect((await armory(["goal", "set", "--objective", "The project's goal"], { cwd: root })).code).toBe(0)
    const subfolder = join(root, "packages", "app")
    mkdirSync(subfolder, { recursive: true })
    const run = await runCodex({ cwd: subfolder, trusted: root, shims, prompt: "what is the goal?", script: [armoryCall("goal_status"), { text: "It is the project's goal." }] })
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: expect.any(String) })
    expect(functionOutputs(run.requests.at(-1) ?? { model: "", input: [] }).at(-1)).toContain("The project's goal")
  }, HOST_RUN_TIMEOUT_MS * 2)
})
