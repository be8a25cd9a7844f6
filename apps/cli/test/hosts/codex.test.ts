import { appendFileSync } from "node:fs"
import { join } from "node:path"
import { spawn } from "node:child_process"
import { describeRequiring, hostExecutable } from "@armory/config/test-components"
import { expect, it } from "vitest"
import {
  ADDED_COMMENT,
  afterThisTest,
  COMMENT_CHECKER_TEXT,
  goalFlow,
  HOST_RUN_TIMEOUT_MS,
  hostPath,
  initProject,
  MAIN_PROMPT,
  repositoryWithGoal,
  runHostProcess,
  snapshotMentions,
  temporary,
  writeFile
} from "./support/hostProject.js"
import { functionOutputs, type ResponsesAnswer, type ResponsesRequest, startResponsesApi } from "./support/responsesApi.js"
import { scriptSteps } from "./support/scriptedApi.js"

const project = () => initProject("codex", "armory-codex")

/** What `codex app-server` answers `hooks/list` with, as far as the trust needs it. */
interface ListedHook {
  readonly key: string
  readonly command: string
  readonly currentHash: string
  readonly trustStatus: string
}

/**
 * The hooks Codex finds for a session in `cwd`, listed by Codex itself (its app server's
 * `hooks/list`, which its `/hooks` view shows), each with the hash its trust must name.
 */
const listHooks = (cwd: string, env: Record<string, string>) =>
  new Promise<ReadonlyArray<ListedHook>>((resolve, reject) => {
    const server = spawn(hostExecutable("codex"), ["app-server"], { cwd, env, stdio: ["pipe", "pipe", "ignore"] })
    const timer = setTimeout(() => {
      server.kill("SIGKILL")
      reject(new Error("codex app-server did not list the hooks within 30 s"))
    }, 30_000)
    let buffered = ""
    server.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      buffered += chunk
      const lines = buffered.split("\n")
      buffered = lines.pop() ?? ""
      for (const line of lines) {
        const message = JSON.parse(line) as { id?: number; result?: { data: ReadonlyArray<{ hooks: ReadonlyArray<ListedHook> }> } }
        if (message.id !== 2) continue
        clearTimeout(timer)
        server.kill()
        resolve(message.result?.data.flatMap((entry) => entry.hooks) ?? [])
      }
    })
    for (const message of [
      { id: 1, method: "initialize", params: { clientInfo: { name: "armory-host-suite", version: "1" } } },
      { method: "initialized" },
      { id: 2, method: "hooks/list", params: { cwds: [cwd] } }
    ])
      server.stdin.write(`${JSON.stringify(message)}\n`)
  })

/**
 * `codex exec` in `cwd` against the scripted model, which is served as one of Codex's own models
 * (so Codex offers it the `apply_patch` edit tool, and holds MCP tools back until it searches for
 * them). The user's own Codex configuration (a home of its own) names the model provider, trusts
 * the project and — as a user does once in Codex's `/hooks` view — Armory's hooks, by the hashes
 * Codex lists; nothing else is set.
 */
const runCodex = async (options: { readonly cwd: string; readonly trusted: string; readonly shims: string; readonly prompt: string; readonly script: ReadonlyArray<ResponsesAnswer | ((request: ResponsesRequest) => ResponsesAnswer)> }) => {
  const api = await startResponsesApi(scriptSteps(options.script, { text: "nothing more to do" }))
  afterThisTest(() => api.close())
  const home = temporary("armory-codex-home-")
  const codexHome = join(home, ".codex")
  const env = { PATH: hostPath(options.shims), HOME: home, CODEX_HOME: codexHome, SCRIPTED_API_KEY: "scripted" }
  writeFile(
    codexHome,
    "config.toml",
    [
      'model = "gpt-5.5"',
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
  const armoryHooks = (await listHooks(options.cwd, env)).filter((hook) => hook.command === "armory hook codex")
  expect(armoryHooks.map((hook) => hook.trustStatus)).toEqual(["untrusted", "untrusted", "untrusted"])
  appendFileSync(join(codexHome, "config.toml"), armoryHooks.map((hook) => `[hooks.state.${JSON.stringify(hook.key)}]\ntrusted_hash = ${JSON.stringify(hook.currentHash)}\n`).join(""))
  const { code, stdout, stderr } = await runHostProcess(hostExecutable("codex"), ["exec", "--json", "--skip-git-repo-check", options.prompt], { cwd: options.cwd, env })
  // The host asked the model API for nothing else.
  expect(api.requests.filter((request) => request.path !== "/v1/responses")).toEqual([])
  return { code, stdout, stderr, requests: api.requests.flatMap((request) => (request.body === undefined ? [] : [request.body])) }
}

/**
 * The Armory tools a request offers the model: the `mcp__armory` namespace, in the request's `tools`
 * or in what a `tool_search` the model ran found (Codex holds MCP tools back from models that can
 * search for them).
 */
const armoryTools = (request: ResponsesRequest | undefined): ReadonlyArray<string> => {
  const found = (request?.input ?? []).flatMap((item) => (item["type"] === "tool_search_output" && Array.isArray(item["tools"]) ? (item["tools"] as ReadonlyArray<Record<string, unknown>>) : []))
  return [...(request?.tools ?? []), ...found].flatMap((tool) =>
    tool["type"] === "namespace" && tool["name"] === "mcp__armory" && Array.isArray(tool["tools"]) ? (tool["tools"] as ReadonlyArray<{ name: string }>).map((inner) => inner.name) : []
  )
}

const armoryCall = (tool: string, input: Record<string, unknown> = {}): ResponsesAnswer => ({ namespace: "mcp__armory", tool, input })

describeRequiring("hosts", "Codex set up with `armory init codex`", () => {
  it("arms the prompt's skills, finds Armory's tools with its first search and runs them without asking, through the goal gate, code mode and a post-edit skill", async () => {
    const { root, shims } = await project()
    const goal = goalFlow(armoryCall, (request: ResponsesRequest) => functionOutputs(request).at(-1) ?? "")
    const run = await runCodex({
      cwd: root,
      trusted: root,
      shims,
      prompt: MAIN_PROMPT,
      script: [
        { toolSearch: "armory goal execute", limit: 30 },
        ...goal.steps,
        { freeform: "apply_patch", input: "*** Begin Patch\n*** Add File: src/a.ts\n+export const a = 1\n*** End Patch\n" },
        { freeform: "apply_patch", input: `*** Begin Patch\n*** Update File: src/a.ts\n@@\n+${ADDED_COMMENT}\n export const a = 1\n*** End Patch\n` },
        { text: "All done." }
      ]
    })
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: expect.any(String) })
    expect(run.stdout).toContain("All done.")
    // Codex holds MCP tools back until the model searches; AGENTS.md tells the model in the first request what to search for.
    const firstText = JSON.stringify(run.requests[0])
    expect(run.requests[0]?.tools?.map((tool) => tool["type"])).toContain("tool_search")
    expect(firstText).toContain("find them with `tool_search`")
    // `required = true`: Codex waited for Armory, so the first search finds its tools.
    expect(armoryTools(run.requests[1])).toEqual(expect.arrayContaining(["goal_set", "goal_status", "goal_complete", "goal_evidence", "goal_criterion_status", "execute", "skills_list"]))
    // AGENTS.md carries the project's skills Codex does not list itself, with what arms each.
    expect(firstText).toContain("`pdf-tools`: Merge and split PDF files. Use it when the task mentions `pdf`. (.armory/skills/pdf-tools/SKILL.md)")
    // The UserPromptSubmit hook added the skills the prompt arms.
    expect(firstText).toContain("Armory skills armed by this prompt")
    expect(firstText).toContain('- pdf-tools (keyword \\"pdf\\")')
    // The skill itself, not only its path: the model need not spend a call to read it.
    expect(firstText).toContain("Merge with `qpdf --empty --pages a.pdf b.pdf -- out.pdf`.")
    // A passing mention of a browser is not a request for one.
    expect(firstText).not.toContain("- browser-drive")
    const outputs = functionOutputs(run.requests.at(-1) ?? { model: "", input: [] })
    expect(outputs).toHaveLength(10)
    // `default_tools_approval_mode = "approve"`: no call was refused for want of an approval.
    expect(outputs.join("\n")).not.toContain("requires approval")
    goal.expectReadBack(outputs, root)
    // The first patch added no comment: the comment checker stays silent. The second adds one and arms it, quoting the comment, with its text.
    expect(JSON.stringify(run.requests[10])).not.toContain("Armory skills armed by the edit")
    const afterEdit = JSON.stringify(run.requests[11])
    expect(afterEdit).toContain('Armory skills armed by the edit of \\"src/a.ts\\"')
    expect(afterEdit).toContain("- comment-checker (path")
    expect(afterEdit).toContain(JSON.stringify(JSON.stringify(ADDED_COMMENT)).slice(1, -1))
    expect(afterEdit).toContain(COMMENT_CHECKER_TEXT)
    // The goal snapshot reached the model once in the session.
    expect(snapshotMentions(run.requests.at(-1))).toBeLessThanOrEqual(1)
  }, HOST_RUN_TIMEOUT_MS * 2)

  it("from a subfolder of the repository works on the project's goal, and a bad ledger line costs only the snapshot", async () => {
    const { root, shims } = await project()
    const subfolder = await repositoryWithGoal(root)
    const run = await runCodex({ cwd: subfolder, trusted: root, shims, prompt: "what is the goal?", script: [{ toolSearch: "armory goal status", limit: 5 }, armoryCall("goal_status"), { text: "It is the project's goal." }] })
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: expect.any(String) })
    expect(functionOutputs(run.requests.at(-1) ?? { model: "", input: [] }).at(-1)).toContain("The project's goal")
    // Codex ran the root's hooks from the subfolder: they found the same project and its goal.
    expect(JSON.stringify(run.requests[0])).toContain("The project's goal")

    appendFileSync(join(root, ".armory", "goals", "ledger.jsonl"), "{not a ledger line\n")
    const broken = await runCodex({ cwd: root, trusted: root, shims, prompt: "split this pdf", script: [{ text: "Split." }] })
    expect({ code: broken.code, stderr: broken.stderr }).toEqual({ code: 0, stderr: expect.any(String) })
    expect(broken.stdout).toContain("Split.")
    const firstText = JSON.stringify(broken.requests[0])
    expect(firstText).toContain("- pdf-tools (keyword")
    expect(firstText).toContain("Armory goal snapshot unavailable (MalformedState")
  }, HOST_RUN_TIMEOUT_MS * 3)
})
