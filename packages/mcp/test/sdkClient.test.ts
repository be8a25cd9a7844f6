import { readdirSync, readFileSync, rmSync } from "node:fs"
import { join } from "node:path"
import { isMutationName } from "@armory/host"
import { CODEMODE_INSTRUCTIONS_URI, GOAL_TOOL_NAMES, listenMcpHttp, SKILL_TOOL_NAMES, SNAPSHOT_URI, skillUri } from "../src/index.js"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { LoggingMessageNotificationSchema, ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js"
import { describe, expect, it } from "vitest"
import { afterTest, type Connected, connectHttp, connectStdio, eventually, project, skillDocument, TOKEN, writeTree } from "./support/clients.js"

type CallResult = { readonly isError?: boolean; readonly structuredContent?: Record<string, unknown>; readonly content: ReadonlyArray<{ type: string; text?: string }> }

const call = async (client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallResult> =>
  (await client.callTool({ name, arguments: args })) as CallResult

const ok = async (client: Client, name: string, args: Record<string, unknown> = {}): Promise<Record<string, unknown>> => {
  const result = await call(client, name, args)
  if (result.isError === true) throw new Error(`${name} failed: ${JSON.stringify(result.structuredContent)}`)
  expect(result.content[0]?.type).toBe("text")
  return result.structuredContent ?? {}
}

/** An MCP server whose `grow` tool adds a tool and says so (`notifications/tools/list_changed`). */
const GROWING_SERVER = { command: process.execPath, args: [join(import.meta.dirname, "..", "..", "host", "test", "fixtures", "hostile-mcp-server.mjs"), "plain"], env: { LIST_CHANGED: "declared" } }

const EXPECTED_TOOLS = [...Object.values(GOAL_TOOL_NAMES), ...Object.values(SKILL_TOOL_NAMES), "execute", "probe"]

/** Every file under `root` and its content, by path relative to it. */
const filesUnder = (root: string): Record<string, string> =>
  Object.fromEntries(
    readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => {
        const path = join(entry.parentPath, entry.name)
        return [path.slice(root.length + 1), readFileSync(path, "utf8")]
      })
  )

/** The places a JSON Schema allows `null`, as paths. */
const nullsIn = (schema: unknown, path = ""): ReadonlyArray<string> => {
  if (Array.isArray(schema)) return schema.flatMap((member, index) => nullsIn(member, `${path}[${index}]`))
  if (typeof schema !== "object" || schema === null) return []
  const here = (schema as Record<string, unknown>)["type"] === "null" ? [path] : []
  return [...here, ...Object.entries(schema).flatMap(([key, value]) => nullsIn(value, `${path}/${key}`))]
}

/** How many events the goal ledger among `files` holds. */
const ledgerLines = (files: Record<string, string>): number =>
  (Object.entries(files).find(([path]) => path.endsWith("ledger.jsonl"))?.[1] ?? "").split("\n").filter((line) => line !== "").length

/** An input each read-only tool accepts. */
const READ_ARGUMENTS: Readonly<Record<string, Record<string, unknown>>> = {
  skill_read: { name: "pdf-tools" },
  skills_suggest: { prompt: "merge pdf files" },
  skills_arm: { prompt: "a pdf please", paths: ["src/a.ts"] }
}

const transports = [
  ["stdio", (config: Parameters<typeof connectStdio>[0]) => connectStdio(config)],
  ["Streamable HTTP", (config: Parameters<typeof connectHttp>[0]) => connectHttp(config)]
] as const

describe.each(transports)("the official MCP SDK client over %s", (_name, connect) => {
  const start = async (): Promise<Connected & { readonly dirs: ReturnType<typeof project> }> => {
    const dirs = project()
    const connected = await connect({ skillSources: [dirs.skills], goals: { store: "file", root: dirs.goals } })
    return { ...connected, dirs }
  }

  it("initializes and lists every tool with an object input schema, and the resources", async () => {
    const { client } = await start()
    expect(client.getServerVersion()?.name).toBe("armory")
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name)).toEqual(EXPECTED_TOOLS)
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe("object")
      expect(tool.description?.length).toBeGreaterThan(10)
    }
    const goalSet = tools.find((tool) => tool.name === "goal_set")
    expect(Object.keys(goalSet?.inputSchema.properties ?? {})).toEqual(["objective", "criteria"])
    // Model-facing tools are never offered force.
    for (const tool of tools) expect(Object.keys(tool.inputSchema.properties ?? {})).not.toContain("force")
    const execute = tools.find((tool) => tool.name === "execute")?.description ?? ""
    expect(execute).toContain("- `goals`: set (goal_set), addCriterion (goal_add_criterion)")
    expect(execute).toContain(CODEMODE_INSTRUCTIONS_URI)
    const { resources } = await client.listResources()
    expect(resources.map((resource) => resource.uri).toSorted()).toEqual([CODEMODE_INSTRUCTIONS_URI, SNAPSHOT_URI, skillUri("comment-checker"), skillUri("pdf-tools")].toSorted())
    const declarations = (await client.readResource({ uri: CODEMODE_INSTRUCTIONS_URI })).contents[0]
    expect(declarations).toEqual(expect.objectContaining({ mimeType: "text/markdown", text: expect.stringContaining("declare const goals: typeof tools.goals") }))
    // Without a browser, the page's API is neither in the description nor in the declarations.
    expect(JSON.stringify(declarations)).not.toContain("snapshot()")
  })

  it("annotates every tool from the tables it comes from, and a read-only one leaves the goal's files byte for byte", async () => {
    const { client, dirs } = await start()
    const { tools } = await client.listTools()
    const allFour = { readOnlyHint: expect.any(Boolean), destructiveHint: expect.any(Boolean), idempotentHint: expect.any(Boolean), openWorldHint: expect.any(Boolean) }
    expect(tools.map((tool) => ({ name: tool.name, annotations: tool.annotations }))).toEqual(tools.map((tool) => ({ name: tool.name, annotations: allFour })))
    const hints = new Map(tools.map((tool) => [tool.name, tool.annotations]))
    for (const [operation, name] of Object.entries(GOAL_TOOL_NAMES)) {
      const expected = isMutationName(operation as keyof typeof GOAL_TOOL_NAMES) ? { readOnlyHint: false, destructiveHint: false, openWorldHint: false } : { readOnlyHint: true, openWorldHint: false }
      expect({ name, hints: hints.get(name) }).toMatchObject({ name, hints: expected })
    }
    for (const name of Object.values(SKILL_TOOL_NAMES)) expect({ name, hints: hints.get(name) }).toMatchObject({ name, hints: { readOnlyHint: true, openWorldHint: false } })
    expect(hints.get("execute")).toMatchObject({ readOnlyHint: false, destructiveHint: true, openWorldHint: true })
    await ok(client, "goal_set", { objective: "ship the exporter", criteria: [{ scenario: "exports a pdf", qaChannel: "cli", testRef: "test/export.test.ts" }] })
    const before = filesUnder(dirs.goals)
    const readOnly = tools.filter((tool) => tool.annotations?.readOnlyHint === true)
    expect(readOnly.length).toBeGreaterThanOrEqual(7)
    const failed: Array<string> = []
    for (const tool of readOnly) if ((await call(client, tool.name, READ_ARGUMENTS[tool.name] ?? {})).isError === true) failed.push(tool.name)
    expect(failed).toEqual([])
    expect(filesUnder(dirs.goals)).toEqual(before)
    // A mutation is what changes them: one appended ledger line.
    await ok(client, "goal_add_criterion", { scenario: "opens the file", qaChannel: "cli", testRef: "test/open.test.ts" })
    expect(ledgerLines(filesUnder(dirs.goals))).toBe(ledgerLines(before) + 1)
  })

  it("advertises null nowhere, since no tool takes it: an optional field is left out, never null", async () => {
    const { client } = await start()
    const { tools } = await client.listTools()
    expect(tools.flatMap((tool) => nullsIn(tool.inputSchema, tool.name))).toEqual([])
    const execute = tools.find((tool) => tool.name === "execute")?.inputSchema.properties?.["timeoutMs"]
    expect(execute).toEqual(expect.objectContaining({ type: "integer", minimum: 1, maximum: 60_000 }))
    expect((await call(client, "execute", { code: "return 1", timeoutMs: null })).isError).toBe(true)
    expect((await call(client, "probe", { driver: null })).isError).toBe(true)
    expect((await call(client, "execute", { code: "return 1" })).structuredContent).toEqual(expect.objectContaining({ status: "completed", result: 1 }))
  })

  it("gives a text-only client JSON it can parse: the whole answer, or past the budget a marked summary of every row it can hold", async () => {
    const { client } = await start()
    const small = await call(client, "execute", { code: "console.log('hi'); return { rows: [1, 2, 3] }" })
    expect(JSON.parse(small.content[0]?.text ?? "")).toEqual({ status: "completed", result: { rows: [1, 2, 3] }, logs: ["[log] hi"], messages: [] })
    const code = "return Array.from({ length: 500 }, (_, id) => ({ id, customer: 'customer ' + id, total: id * 3, notes: 'a note that takes some room '.repeat(2) }))"
    const table = await call(client, "execute", { code })
    expect(table.structuredContent?.["result"]).toHaveLength(500)
    const text = JSON.parse(table.content[0]?.text ?? "") as { _truncated: string; summary: { status: string; result: Array<unknown> } }
    expect(text._truncated).toMatch(/^a summary of a \d+-character answer/)
    expect(text.summary.status).toBe("completed")
    expect(text.summary.result.length).toBeGreaterThan(100)
    expect(text.summary.result.at(-1)).toMatch(/^… \(\d+ more items\)$/)
  })

  it("keeps the tool definitions together within 12 KB when no browser is connected", async () => {
    const { client } = await start()
    const { tools } = await client.listTools()
    const bytes = tools.map((tool) => ({ name: tool.name, bytes: Buffer.byteLength(JSON.stringify(tool)) }))
    const total = bytes.reduce((sum, tool) => sum + tool.bytes, 0)
    console.log(`MCP tool definitions: ${total} bytes for ${tools.length} tools (largest: ${bytes.toSorted((a, b) => b.bytes - a.bytes).slice(0, 3).map((tool) => `${tool.name} ${tool.bytes}`).join(", ")})`)
    expect(total).toBeLessThanOrEqual(12 * 1024)
  })

  it("runs a goal to a gate refusal with the unmet criteria, then to completion with evidence", async () => {
    const { client } = await start()
    const goal = await ok(client, "goal_set", {
      objective: "ship the exporter",
      criteria: [{ scenario: "exports a pdf", qaChannel: "cli", testRef: "test/export.test.ts" }]
    })
    expect(goal["objective"]).toBe("ship the exporter")
    const refused = await call(client, "goal_complete")
    expect(refused.isError).toBe(true)
    expect(refused.structuredContent?.["_tag"]).toBe("GateRefused")
    expect(refused.structuredContent?.["unmet"]).toEqual([expect.objectContaining({ criterionId: "c1", owes: ["pass", "green", "scenario"] })])
    expect(refused.content[0]?.text).toMatch(/^GateRefused: /)
    const steer = await call(client, "goal_steer", { directive: "drop the pdf criterion", kind: "narrow_scope", evidence: "", rationale: "" })
    expect(steer.isError).toBe(true)
    expect(steer.structuredContent?.["_tag"]).toBe("SteeringRejected")
    expect(typeof steer.structuredContent?.["reason"]).toBe("string")
    await ok(client, "goal_evidence", { criterionId: "c1", kind: "green", ref: "vitest run: 1 passed" })
    await ok(client, "goal_evidence", { criterionId: "c1", kind: "scenario", ref: "exported report.pdf and opened it" })
    await ok(client, "goal_criterion_status", { criterionId: "c1", status: "pass" })
    const completed = await ok(client, "goal_complete")
    expect(completed["status"]).toBe("complete")
    const status = await ok(client, "goal_status")
    expect(status["gate"]).toEqual(expect.objectContaining({ passed: true }))
    // A complete goal is never changed from a model-facing tool, force or not.
    const again = await call(client, "goal_set", { objective: "something else", force: true })
    expect(again.isError).toBe(true)
    expect(again.structuredContent?.["_tag"]).toBe("GoalAlreadyComplete")
  })

  it("answers bad input with an isError result naming the problem, never a protocol error", async () => {
    const { client } = await start()
    const missing = await call(client, "goal_evidence", { kind: "green" })
    expect(missing.isError).toBe(true)
    expect(missing.structuredContent?.["_tag"]).toBe("ToolInputError")
    expect(missing.structuredContent?.["message"]).toMatch(/criterionId/)
    const wrongType = await call(client, "goal_criterion_status", { criterionId: "c1", status: "done" })
    expect(wrongType.structuredContent?.["_tag"]).toBe("ToolInputError")
    expect(wrongType.structuredContent?.["message"]).toMatch(/status/)
    const unknownSkill = await call(client, "skill_read", { name: "nope" })
    expect(unknownSkill.structuredContent).toEqual(expect.objectContaining({ _tag: "UnknownSkill", name: "nope", available: 2 }))
    const extra = await call(client, "skills_list", Object.fromEntries(Array.from({ length: 50 }, (_, index) => [`key${index}`, index])))
    expect(extra.structuredContent).toEqual({
      _tag: "ToolInputError",
      message: 'invalid input: skills_list takes no arguments, got "key0", "key1", "key2", "key3", "key4" and 45 more'
    })
    const badCode = await call(client, "execute", { code: 42 })
    expect(badCode.structuredContent?.["_tag"]).toBe("ToolInputError")
  })

  it("lists, reads and arms skills, and runs code over goals and skills", async () => {
    const { client, dirs } = await start()
    const listed = await ok(client, "skills_list")
    expect(listed["result"]).toEqual([
      {
        name: "comment-checker",
        address: expect.stringMatching(/^[^:]+:comment-checker$/),
        description: "Checks comments in edited code.",
        location: join(dirs.skills, "comment-checker", "SKILL.md")
      },
      { name: "pdf-tools", address: expect.stringMatching(/^[^:]+:pdf-tools$/), description: "Work with PDF files.", location: join(dirs.skills, "pdf-tools", "SKILL.md") }
    ])
    const suggested = await ok(client, "skills_suggest", { prompt: "merge these PDF files" })
    expect(suggested["result"]).toEqual([
      { name: "pdf-tools", description: "Work with PDF files.", location: join(dirs.skills, "pdf-tools", "SKILL.md"), score: expect.any(Number), terms: ["pdf", "files"] }
    ])
    const block = await ok(client, "skills_catalog", { maxChars: 4000 })
    expect(block["result"]).toContain(`<skill>\n<name>pdf-tools</name>\n<description>Work with PDF files.</description>\n<location>${join(dirs.skills, "pdf-tools", "SKILL.md")}</location>\n</skill>`)
    const tooSmall = await call(client, "skills_catalog", { maxChars: 10 })
    expect(tooSmall.isError).toBe(true)
    expect(tooSmall.structuredContent).toMatchObject({ _tag: "CatalogBudgetTooSmall", maxChars: 10, minimum: expect.any(Number) })
    const read = await ok(client, "skill_read", { name: "pdf-tools" })
    expect(read["body"]).toBe("# PDF\nUse scripts/merge.py.\n")
    expect(read["files"]).toEqual([{ path: "scripts/merge.py", bytes: 15 }])
    const armed = await ok(client, "skills_arm", { prompt: "merge these PDF files", paths: ["src/index.ts"] })
    expect(armed["result"]).toEqual([
      { name: "comment-checker", location: join(dirs.skills, "comment-checker", "SKILL.md"), keywords: [], urls: [], paths: ["**/*.ts"], edits: [] },
      { name: "pdf-tools", location: join(dirs.skills, "pdf-tools", "SKILL.md"), keywords: ["pdf"], urls: [], paths: [], edits: [] }
    ])
    const executed = await ok(client, "execute", {
      code:
        'await goals.set({ objective: "from code" })\n' +
        "const names = (await skills.list()).map((skill) => skill.name)\n" +
        'await channel.send({ text: "hello" })\n' +
        "return { names, objective: (await goals.status({})).goal.objective }"
    })
    expect(executed["status"]).toBe("completed")
    expect(executed["result"]).toEqual({ names: ["comment-checker", "pdf-tools"], objective: "from code" })
    expect(executed["channel"]).toEqual({ id: "mcp", messages: ["hello"] })
    // The code's goal is the session the goal tools work on.
    expect((await ok(client, "goal_status"))["goal"]).toEqual(expect.objectContaining({ objective: "from code" }))
    const failed = await call(client, "execute", { code: "throw new Error('no')" })
    expect(failed.isError).toBe(true)
    expect(failed.structuredContent?.["status"]).toBe("error")
    // A client that passes on only the text part (OpenCode does) still gives the model the logs and the messages.
    const logged = await call(client, "execute", { code: 'console.log("logged"); await channel.send({ text: "hello" }); return 42' })
    expect(JSON.parse(String(logged.content[0]?.text))).toEqual({ status: "completed", result: 42, logs: ["[log] logged"], messages: ["hello"] })
    expect(JSON.parse(String(failed.content[0]?.text))).toEqual(expect.objectContaining({ status: "error", error: expect.objectContaining({ message: expect.stringContaining("no") }) }))
  })

  it("describes execute anew, and says so, when an MCP server it runs code over changes its tools", async () => {
    const dirs = project()
    const { client } = await connect({ skillSources: [dirs.skills], goals: { store: "file", root: dirs.goals }, mcpServers: { plain: GROWING_SERVER } })
    const executeDescription = async () => (await client.listTools()).tools.find((tool) => tool.name === "execute")?.description ?? ""
    const before = await executeDescription()
    expect(before).toContain("- `tools.plain`: pid, grow\n")
    expect(before).not.toContain("grown2")
    let announced = 0
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      announced++
    })
    const grown = await call(client, "execute", { code: "return (await tools.plain.grow())[0].text" })
    expect(grown.structuredContent?.["result"]).toBe("grown")
    await eventually(async () => expect(announced).toBeGreaterThan(0))
    expect(await executeDescription()).toContain("grown2")
    const called = await call(client, "execute", { code: "return (await tools.plain.grown2())[0].text" })
    expect(called.structuredContent?.["result"]).toBe("grown2 answered")
  })

  it("sends execute's console lines and a failed call's error as log messages, at the level the client set", async () => {
    const { client } = await start()
    const messages: Array<{ readonly level: string; readonly logger?: string | undefined; readonly data: unknown }> = []
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      messages.push(notification.params)
    })
    await client.setLoggingLevel("info")
    await call(client, "execute", { code: 'console.log("first line"); console.debug("detail"); console.warn("second line"); return 1' })
    await eventually(async () =>
      expect(messages).toEqual([
        { level: "info", logger: "execute", data: "first line" },
        { level: "warning", logger: "execute", data: "second line" }
      ])
    )
    messages.length = 0
    await client.setLoggingLevel("error")
    await call(client, "execute", { code: 'console.log("not at error level"); throw new Error("boom")' })
    await call(client, "goal_status", {})
    await eventually(async () => expect(messages.map((message) => [message.level, message.logger])).toEqual([["error", "execute"]]))
    expect(JSON.stringify(messages[0]?.data)).toContain("boom")
  })

  it("completes a skill's name in the skill://{name} template and reads the skill through it", async () => {
    const { client } = await start()
    const { resourceTemplates } = await client.listResourceTemplates()
    expect(resourceTemplates.map((template) => template.uriTemplate)).toContain("skill://{name}")
    const ref = { type: "ref/resource", uri: "skill://{name}" } as const
    expect((await client.complete({ ref, argument: { name: "name", value: "PD" } })).completion).toEqual({ values: ["pdf-tools"], total: 1, hasMore: false })
    expect((await client.complete({ ref, argument: { name: "name", value: "" } })).completion.values).toEqual(["comment-checker", "pdf-tools"])
    expect((await client.complete({ ref, argument: { name: "name", value: "zz" } })).completion.values).toEqual([])
    // A name no skill has is read through the template, which says so.
    await expect(client.readResource({ uri: "skill://zz" })).rejects.toThrow(/no skill named "zz" is loaded/)
  })

  it("reads skill://… and the snapshot, and announces a skill added or removed on disk", async () => {
    const { client, dirs } = await start()
    const skill = await client.readResource({ uri: skillUri("pdf-tools") })
    expect(skill.contents).toEqual([{ uri: skillUri("pdf-tools"), mimeType: "text/markdown", text: "# PDF\nUse scripts/merge.py.\n" }])
    await ok(client, "goal_set", { objective: "watch the snapshot" })
    const snapshot = await client.readResource({ uri: SNAPSHOT_URI })
    expect(snapshot.contents[0]).toEqual(expect.objectContaining({ uri: SNAPSHOT_URI, text: expect.stringContaining("watch the snapshot") }))

    let announced = 0
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
      announced++
    })
    writeTree(dirs.skills, { "new-skill/SKILL.md": skillDocument("new-skill", "Arrived while the server ran.") })
    await eventually(async () => expect(announced).toBeGreaterThan(0))
    const listed = await client.listResources()
    expect(listed.resources.map((resource) => resource.uri)).toContain(skillUri("new-skill"))
    expect((await client.readResource({ uri: skillUri("new-skill") })).contents[0]).toEqual(expect.objectContaining({ text: "# new-skill\n" }))

    const before = announced
    rmSync(join(dirs.skills, "new-skill"), { recursive: true })
    await eventually(async () => expect(announced).toBeGreaterThan(before))
    expect((await client.listResources()).resources.map((resource) => resource.uri)).not.toContain(skillUri("new-skill"))
    await expect(client.readResource({ uri: skillUri("new-skill") })).rejects.toThrow(/new-skill/)
  })
})

describe("resource subscriptions over stdio", () => {
  it("tells a subscriber when a goal tool or execute changed the snapshot, and when a skill's body changed on disk", async () => {
    const dirs = project()
    const { client } = await connectStdio({ skillSources: [dirs.skills], goals: { store: "file", root: dirs.goals } })
    expect(client.getServerCapabilities()?.resources?.subscribe).toBe(true)
    const updated: Array<string> = []
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
      updated.push(notification.params.uri)
    })
    await client.subscribeResource({ uri: SNAPSHOT_URI })
    await client.subscribeResource({ uri: skillUri("pdf-tools") })
    await ok(client, "goal_status")
    await ok(client, "skills_list")
    await ok(client, "goal_set", { objective: "watch the snapshot" })
    await eventually(async () => expect(updated).toEqual([SNAPSHOT_URI]))
    await call(client, "execute", { code: 'await goals.addCriterion({ scenario: "another", qaChannel: "cli", testRef: "t1" }); return 1' })
    await eventually(async () => expect(updated).toEqual([SNAPSHOT_URI, SNAPSHOT_URI]))
    writeTree(dirs.skills, { "comment-checker/SKILL.md": skillDocument("comment-checker", "Checks comments.", "", "# changed, unsubscribed\n") })
    writeTree(dirs.skills, { "pdf-tools/SKILL.md": skillDocument("pdf-tools", "Work with PDF files.", "", "# PDF, changed\n") })
    await eventually(async () => expect(updated).toEqual([SNAPSHOT_URI, SNAPSHOT_URI, skillUri("pdf-tools")]))
    await client.unsubscribeResource({ uri: SNAPSHOT_URI })
    await ok(client, "goal_add_criterion", { scenario: "after unsubscribing", qaChannel: "cli", testRef: "t2" })
    await ok(client, "skills_list")
    expect(updated).toEqual([SNAPSHOT_URI, SNAPSHOT_URI, skillUri("pdf-tools")])
  })
})

/** Two SDK clients on one Streamable HTTP server, optionally given one goal session for every call. */
const twoClients = async (sessionId?: string) => {
  const dirs = project()
  const server = await listenMcpHttp({
    skillSources: [dirs.skills],
    goals: { store: "file", root: dirs.goals },
    catalog: { watch: false },
    token: TOKEN,
    ...(sessionId === undefined ? {} : { sessionId })
  })
  afterTest(() => server.close())
  const client = async () => {
    const connected = new Client({ name: "armory-test", version: "1.0.0" })
    await connected.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }))
    afterTest(() => connected.close())
    return connected
  }
  return [await client(), await client()] as const
}

describe("goal sessions over Streamable HTTP", () => {
  it("gives each client's Mcp-Session-Id a goal session of its own", async () => {
    const [first, second] = await twoClients()
    await ok(first, "goal_set", { objective: "first client's goal" })
    expect((await ok(second, "goal_status"))["goal"]).toBeNull()
    await ok(second, "goal_set", { objective: "second client's goal" })
    expect((await ok(first, "goal_status"))["goal"]).toEqual(expect.objectContaining({ objective: "first client's goal" }))
  })

  it("puts every client on the one session the server was given", async () => {
    const [first, second] = await twoClients("shared")
    await ok(first, "goal_set", { objective: "one goal for both" })
    expect((await ok(second, "goal_status"))["goal"]).toEqual(expect.objectContaining({ objective: "one goal for both" }))
  })
})
