import { spawnSync } from "node:child_process"
import { appendFileSync, existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { testHostsDirectory } from "@armory/config/components"
import { describeRequiring, hostExecutable } from "@armory/config/test-components"
import { expect, it } from "vitest"
import { type ChatAnswer, type ChatRequest, chatToolResults, contentText, startChatCompletionsApi } from "./support/chatCompletionsApi.js"
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
import { scriptSteps } from "./support/scriptedApi.js"

const project = () => initProject("opencode", "armory-opencode")

/**
 * `opencode run` in `cwd` against the scripted model. The user's own OpenCode configuration (a home
 * of its own) names the model provider, as a user's does, and turns off what reaches for the
 * internet (the models.dev catalog, self-update). npm's cache is the test machine's, so OpenCode's
 * own install of its plugin kit into `.opencode/` costs what it costs a user who has used npm before.
 */
const runOpenCode = async (options: { readonly cwd: string; readonly shims: string; readonly prompt: string; readonly script: ReadonlyArray<ChatAnswer | ((request: ChatRequest) => ChatAnswer)> }) => {
  const api = await startChatCompletionsApi(scriptSteps(options.script, { text: "nothing more to do" }))
  afterThisTest(() => api.close())
  const home = temporary("armory-opencode-home-")
  writeFile(
    home,
    ".config/opencode/opencode.json",
    JSON.stringify({
      $schema: "https://opencode.ai/config.json",
      provider: {
        scripted: {
          npm: "@ai-sdk/openai-compatible",
          name: "Scripted",
          options: { baseURL: api.url, apiKey: "scripted" },
          models: { "scripted-model": { name: "Scripted model", tool_call: true, limit: { context: 200_000, output: 8_000 } } }
        }
      },
      model: "scripted/scripted-model",
      autoupdate: false,
      share: "disabled"
    })
  )
  const env = {
    PATH: hostPath(options.shims),
    HOME: home,
    OPENCODE_DISABLE_MODELS_FETCH: "1",
    OPENCODE_DISABLE_AUTOUPDATE: "1",
    npm_config_cache: join(testHostsDirectory(), "npm-cache")
  }
  const { code, stdout, stderr } = await runHostProcess(hostExecutable("opencode"), ["run", "--format", "json", options.prompt], { cwd: options.cwd, env })
  // The host asked the model API for nothing else.
  expect(api.requests.filter((request) => request.path !== "/v1/chat/completions")).toEqual([])
  return { code, stdout, stderr, requests: api.agentRequests() }
}

const armoryCall = (tool: string, input: Record<string, unknown> = {}): ChatAnswer => ({ tool: `armory_${tool}`, input })

/** What the user's turn says to the model in a request: every user message's text. */
const userText = (request: ChatRequest | undefined): string =>
  (request?.messages ?? [])
    .filter((message) => message.role === "user")
    .map((message) => contentText(message.content))
    .join("\n")

/** The text OpenCode printed as the model's answers (`--format json` events). */
const answerText = (stdout: string): string =>
  stdout
    .split("\n")
    .flatMap((line) => {
      try {
        const event = JSON.parse(line) as { type?: string; part?: { text?: string } }
        return event.type === "text" && typeof event.part?.text === "string" ? [event.part.text] : []
      } catch {
        return []
      }
    })
    .join("\n")

describeRequiring("hosts", "OpenCode set up with `armory init opencode`", () => {
  it("arms the prompt's skills, offers Armory's tools at once, runs a goal through its gate, code mode and a post-edit skill", async () => {
    const { root, shims } = await project()
    const goal = goalFlow(armoryCall, (request: ChatRequest) => chatToolResults(request).at(-1) ?? "")
    const run = await runOpenCode({
      cwd: root,
      shims,
      prompt: MAIN_PROMPT,
      script: [
        ...goal.steps,
        { tool: "write", input: { filePath: join(root, "src", "a\u202Ests.ts"), content: "export const a = 1\n" } },
        { tool: "edit", input: { filePath: join(root, "src", "a\u202Ests.ts"), oldString: "export const a = 1", newString: `${ADDED_COMMENT}\nexport const a = 1` } },
        { text: "All done." }
      ]
    })
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: expect.any(String) })
    expect(answerText(run.stdout)).toContain("All done.")
    const [first] = run.requests
    const offered = (first?.tools ?? []).map((tool) => tool.function.name)
    expect(offered).toEqual(expect.arrayContaining(["armory_goal_set", "armory_goal_status", "armory_goal_complete", "armory_execute", "armory_skills_list"]))
    // The plugin added the skills the prompt arms to the user's message.
    const asked = userText(first)
    expect(asked).toContain("Armory skills armed by this prompt")
    expect(asked).toContain('- pdf-tools (keyword "pdf")')
    // The skill itself, not only its path: the model need not spend a call to read it.
    expect(asked).toContain("Merge with `qpdf --empty --pages a.pdf b.pdf -- out.pdf`.")
    // A passing mention of a browser is not a request for one.
    expect(asked).not.toContain("- browser-drive")
    const results = chatToolResults(run.requests.at(-1) ?? { model: "", messages: [] })
    expect(results).toHaveLength(10)
    // OpenCode passes on only the text part: it carries the refusal, the result, the logs and the channel's messages.
    goal.expectReadBack(results, root)
    // The write added no comment: the comment checker stays silent. The edit's result carries it, quoting the
    // comment, with its text, the file's name with its bidi override written out.
    expect(results.slice(0, 9).join("\n")).not.toContain("Armory skills armed by the edit")
    const added = results[9] ?? ""
    expect(added).toContain('Armory skills armed by the edit of "src/a\\u{202E}sts.ts"')
    expect(added).toContain("- comment-checker (path")
    expect(added).toContain(JSON.stringify(ADDED_COMMENT))
    expect(added).toContain(COMMENT_CHECKER_TEXT)
    expect(added.slice(added.indexOf("Armory skills armed by the edit"))).not.toContain("\u202E")
    expect(readFileSync(join(root, "src", "a\u202Ests.ts"), "utf8")).toBe(`${ADDED_COMMENT}\nexport const a = 1\n`)
    // The goal snapshot reached the model once in the session.
    expect(snapshotMentions(run.requests.at(-1))).toBeLessThanOrEqual(1)
  }, HOST_RUN_TIMEOUT_MS * 2)

  it("from a subfolder of the repository works on the project's goal, and a bad ledger line costs only the snapshot", async () => {
    const { root, shims } = await project()
    const subfolder = await repositoryWithGoal(root)
    const sub = await runOpenCode({ cwd: subfolder, shims, prompt: "what is the goal of this pdf work?", script: [armoryCall("goal_status"), { text: "It is the project's goal." }] })
    expect({ code: sub.code, stderr: sub.stderr }).toEqual({ code: 0, stderr: expect.any(String) })
    expect(chatToolResults(sub.requests.at(-1) ?? { model: "", messages: [] }).at(-1)).toContain("The project's goal")
    // The plugin found the same project from the subfolder: its skills, and its goal in the snapshot.
    expect(userText(sub.requests[0])).toContain("- pdf-tools (keyword")
    expect(userText(sub.requests[0])).toContain("The project's goal")
    // What the hooks cache is kept out of git; the skills and the goals are the project's to commit.
    const untracked = spawnSync("git", ["status", "--porcelain", "--untracked-files=all"], { cwd: root, encoding: "utf8" }).stdout
    expect(untracked).toContain(".armory/skills/pdf-tools/SKILL.md")
    expect(untracked).toContain(".armory/goals/ledger.jsonl")
    expect(existsSync(join(root, ".armory", "cache"))).toBe(true)
    expect(untracked).not.toContain(".armory/cache")

    appendFileSync(join(root, ".armory", "goals", "ledger.jsonl"), "{not a ledger line\n")
    const broken = await runOpenCode({ cwd: root, shims, prompt: "split this pdf", script: [{ text: "Split." }] })
    expect({ code: broken.code, stderr: broken.stderr }).toEqual({ code: 0, stderr: expect.any(String) })
    expect(answerText(broken.stdout)).toContain("Split.")
    expect(userText(broken.requests[0])).toContain("- pdf-tools (keyword")
    expect(userText(broken.requests[0])).toContain("Armory goal snapshot unavailable (MalformedState")
  }, HOST_RUN_TIMEOUT_MS * 3)
})
