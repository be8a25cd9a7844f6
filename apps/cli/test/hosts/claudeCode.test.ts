import { appendFileSync, mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describeRequiring, hostExecutable } from "@armory/config/test-components"
import { expect, it } from "vitest"
import { type MessagesRequest, type ScriptedAnswer, startAnthropicApi, toolResults } from "./support/anthropicApi.js"
import { scriptSteps } from "./support/scriptedApi.js"
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
  temporary
} from "./support/hostProject.js"

const project = () => initProject("claude-code", "armory-claude")

interface HostRun {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
  readonly requests: ReadonlyArray<MessagesRequest>
}

/**
 * `claude -p` in `cwd` against the scripted model, with a home of its own in which the user has
 * trusted the project (Claude Code honours a project's permission rules only then), nonessential
 * traffic off, and edits accepted as a user running it unattended would say.
 */
const runClaude = async (options: {
  readonly cwd: string
  readonly trusted: string
  readonly shims: string
  readonly prompt: string
  readonly script: (request: MessagesRequest, index: number) => ScriptedAnswer
  readonly args?: ReadonlyArray<string>
}): Promise<HostRun> => {
  const api = await startAnthropicApi(options.script)
  afterThisTest(() => api.close())
  const home = temporary("armory-claude-home-")
  mkdirSync(join(home, "tmp"))
  writeFileSync(join(home, ".claude.json"), JSON.stringify({ projects: { [options.trusted]: { hasTrustDialogAccepted: true } } }))
  const env = {
    PATH: hostPath(options.shims),
    HOME: home,
    TMPDIR: join(home, "tmp"),
    ANTHROPIC_BASE_URL: api.url,
    ANTHROPIC_API_KEY: "sk-ant-scripted",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    MCP_CONNECTION_NONBLOCKING: "false"
  }
  const { code, stdout, stderr } = await runHostProcess(hostExecutable("claude-code"), ["-p", options.prompt, "--permission-mode", "acceptEdits", ...(options.args ?? [])], { cwd: options.cwd, env })
  const requests = api.requests.flatMap((request) => (request.body === undefined ? [] : [request.body]))
  // The host asked the model API for nothing else.
  expect(api.requests.filter((request) => !request.path.startsWith("/v1/messages"))).toEqual([])
  return { code, stdout, stderr, requests }
}

const scripted = (steps: ReadonlyArray<ScriptedAnswer | ((request: MessagesRequest) => ScriptedAnswer)>) => scriptSteps(steps, { text: "nothing more to do" })

const lastResult = (request: MessagesRequest) => toolResults(request).at(-1) ?? { text: "", isError: false }

describeRequiring("hosts", "Claude Code set up with `armory init claude-code`", () => {
  it("arms the prompt's skills, offers Armory's tools at once, runs a goal through its gate, code mode and a post-edit skill", async () => {
    const { root, shims } = await project()
    const goal = goalFlow((tool, input = {}): ScriptedAnswer => ({ tool: `mcp__armory__${tool}`, input }), (request: MessagesRequest) => lastResult(request).text)
    const run = await runClaude({
      cwd: root,
      trusted: root,
      shims,
      prompt: MAIN_PROMPT,
      script: scripted([
        ...goal.steps,
        { tool: "Write", input: { file_path: join(root, "src", "a.ts"), content: "export const a = 1\n" } },
        { tool: "Edit", input: { file_path: join(root, "src", "a.ts"), old_string: "export const a = 1", new_string: `${ADDED_COMMENT}\nexport const a = 1` } },
        { text: "All done." }
      ])
    })
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: expect.any(String) })
    expect(run.stdout).toContain("All done.")
    const [first] = run.requests
    const firstText = JSON.stringify(first)
    for (const tool of ["goal_set", "goal_status", "goal_complete", "execute", "skills_list"]) expect(firstText).toContain(`mcp__armory__${tool}`)
    expect(firstText).toContain("Armory skills armed by this prompt")
    expect(firstText).toContain("- pdf-tools (keyword \\\"pdf\\\")")
    // The skill itself, not only its path: the model need not spend a call to read it.
    expect(firstText).toContain("Merge with `qpdf --empty --pages a.pdf b.pdf -- out.pdf`.")
    // A passing mention of a browser is not a request for one.
    expect(firstText).not.toContain("- browser-drive")
    const results = toolResults(run.requests.at(-1) ?? { model: "", messages: [] })
    expect(results).toHaveLength(10)
    // The refusal reaches the model as an error; Claude Code hands the model the structured content as the text.
    expect(results[2]).toEqual({ isError: true, text: expect.stringContaining("GateRefused: completion refused: 1 unmet") })
    expect(results.filter((result, index) => index !== 2).every((result) => !result.isError)).toBe(true)
    goal.expectReadBack(results.map((result) => result.text), root)
    // The Write added no comment: the comment checker stays silent. The Edit that adds one arms it, quoting the comment, with its text.
    expect(JSON.stringify(run.requests[9])).not.toContain("Armory skills armed by the edit")
    const afterEdit = JSON.stringify(run.requests[10])
    expect(afterEdit).toContain('Armory skills armed by the edit of \\"src/a.ts\\"')
    expect(afterEdit).toContain("- comment-checker (path")
    expect(afterEdit).toContain(JSON.stringify(JSON.stringify(ADDED_COMMENT)).slice(1, -1))
    expect(afterEdit).toContain(COMMENT_CHECKER_TEXT)
    // The goal snapshot reached the model once, not once per hook.
    expect(snapshotMentions(run.requests[1])).toBeLessThanOrEqual(1)
  }, HOST_RUN_TIMEOUT_MS * 2)

  it("keeps the session going with a bad ledger line, and from a subfolder works on the project's goal", async () => {
    const { root, shims } = await project()
    const fromSubfolder = await repositoryWithGoal(root)
    // Claude Code finds the project's .mcp.json from a subfolder but reads settings (hooks, permission rules) only where it starts.
    const sub = await runClaude({
      cwd: fromSubfolder,
      trusted: fromSubfolder,
      shims,
      prompt: "what is the goal?",
      args: ["--allowedTools", "mcp__armory"],
      script: scripted([{ tool: "mcp__armory__goal_status", input: {} }, { text: "It is the project's goal." }])
    })
    expect({ code: sub.code, stderr: sub.stderr }).toEqual({ code: 0, stderr: expect.any(String) })
    expect(lastResult(sub.requests.at(-1) ?? { model: "", messages: [] }).text).toContain("The project's goal")

    appendFileSync(join(root, ".armory", "goals", "ledger.jsonl"), "{not a ledger line\n")
    const broken = await runClaude({ cwd: root, trusted: root, shims, prompt: "split this pdf", script: scripted([{ text: "Split." }]) })
    expect({ code: broken.code, stderr: broken.stderr }).toEqual({ code: 0, stderr: expect.any(String) })
    expect(broken.stdout).toContain("Split.")
    const firstText = JSON.stringify(broken.requests[0])
    expect(firstText).toContain("- pdf-tools (keyword")
    expect(firstText).toContain("Armory goal snapshot unavailable (MalformedState")
  }, HOST_RUN_TIMEOUT_MS * 3)
})
