import {
  HOST_GLOBALS,
  type GoalOperationName,
  type HostShape,
  type HostToolTree,
  PROBE_DRIVERS,
  answerToolCall,
  collectingChannel,
  isMutationName,
  type Tool,
  type ToolAnswer
} from "@armory/host"
import { Effect, Schema } from "effect"
import { McpSchema } from "effect/ai"
import { resultText } from "./ResultText.js"

/** The goal operations a model is offered, by their litgoal tool names; `sessions` and `snapshot` are not tools (the snapshot is a resource). */
export const GOAL_TOOL_NAMES = {
  set: "goal_set",
  addCriterion: "goal_add_criterion",
  addEvidence: "goal_evidence",
  setCriterionStatus: "goal_criterion_status",
  steer: "goal_steer",
  checkpoint: "goal_checkpoint",
  addBlocker: "goal_blocker",
  resolveBlocker: "goal_resolve_blocker",
  status: "goal_status",
  setGoalStatus: "goal_status_set",
  complete: "goal_complete"
} as const satisfies Record<Exclude<GoalOperationName, "sessions" | "snapshot">, string>

/** The skills tools, by the code-mode `skills` operation each one is. */
export const SKILL_TOOL_NAMES = {
  list: "skills_list",
  read: "skill_read",
  catalog: "skills_catalog",
  suggest: "skills_suggest",
  arm: "skills_arm"
} as const satisfies Record<keyof HostToolTree["skills"], string>

/**
 * What a tool does to its world, as MCP's tool annotations tell a client (hints: a client may ask
 * before anything that is not `readOnlyHint`).
 */
type ToolEffect =
  /** Reads Armory's own files (skills, goals): changes nothing, touches nothing outside. */
  | "reads"
  /** Appends one event to the goal's ledger: nothing is removed or overwritten. */
  | "appends"
  /** Reads the page or another program (a driver's version): changes nothing. */
  | "observes"
  /** Moves the page without acting on it (navigating, hovering): a repeat changes nothing more. */
  | "moves"
  /** Acts on the page (a click may submit a form): may change what it cannot undo. */
  | "acts"
  /** Runs code that may call any tool, the page's and other servers' included. */
  | "runs"

const ANNOTATIONS: Readonly<Record<ToolEffect, typeof McpSchema.ToolAnnotations.Type>> = {
  reads: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  appends: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  observes: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  moves: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  acts: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  runs: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true }
}

/** The page tools, offered only when the server was given a browser (`McpOptions.pageTools`), with what each does to the page. */
const PAGE_TOOLS = {
  snapshot: ["page_snapshot", "observes"],
  click: ["page_click", "acts"],
  type: ["page_type", "acts"],
  fill: ["page_fill", "acts"],
  select: ["page_select", "acts"],
  press: ["page_press", "acts"],
  hover: ["page_hover", "moves"],
  value: ["page_value", "observes"],
  waitFor: ["page_wait_for", "observes"],
  url: ["page_url", "observes"],
  title: ["page_title", "observes"],
  text: ["page_text", "observes"],
  query: ["page_query", "observes"],
  screenshot: ["page_screenshot", "observes"],
  navigate: ["page_navigate", "moves"],
  dialogs: ["page_dialogs", "observes"]
} as const satisfies Record<keyof HostToolTree["page"], readonly [string, ToolEffect]>

/** The page tools' names, by the code-mode `page` operation each one is. */
export const PAGE_TOOL_NAMES = Object.fromEntries(Object.entries(PAGE_TOOLS).map(([operation, [name]]) => [operation, name])) as {
  readonly [Operation in keyof typeof PAGE_TOOLS]: (typeof PAGE_TOOLS)[Operation][0]
}

/** Every tool the server lists, in order: the goal tools, the skills tools, then code mode and the probe (and the page tools after them, with a browser). */
export const MCP_TOOL_NAMES = [...Object.values(GOAL_TOOL_NAMES), ...Object.values(SKILL_TOOL_NAMES), "execute", "probe"] as const

const [EXECUTE_TOOL_NAME, PROBE_TOOL_NAME] = MCP_TOOL_NAMES.slice(-2) as ["execute", "probe"]

/** The id `channel.send` reports under in an `execute` call; the messages come back with the result. */
export const MCP_CHANNEL_ID = "mcp"

/** What a tool call needs from the connection it came on. */
export interface McpCall {
  /** The goal session the call works on (the default session when undefined). */
  readonly sessionId: string | undefined
}

type JsonObject = { readonly [key: string]: unknown }

/** One MCP tool: its descriptor and how a call is answered. */
export interface McpToolEntry {
  readonly tool: McpSchema.Tool
  readonly call: (host: HostShape, call: McpCall, args: JsonObject | undefined) => Effect.Effect<McpSchema.CallToolResult>
  /** The resources a successful call may have changed: their subscribers are told (`notifications/resources/updated`). */
  readonly updates: ReadonlyArray<string>
  /** What a call's result logged (execute's console), each line with its level, sent as log messages as well. */
  readonly loggedLines?: (result: McpSchema.CallToolResult) => ReadonlyArray<LoggedLine>
}

/** One line a call logged, at an MCP logging level. */
export interface LoggedLine {
  readonly level: "debug" | "info" | "warning" | "error"
  readonly text: string
}

/** The MCP level of each console method a guest may call: code mode prefixes every line with its method. */
const CONSOLE_LEVELS: Readonly<Record<string, LoggedLine["level"]>> = { log: "info", info: "info", debug: "debug", warn: "warning", error: "error" }

/** A guest's console line (`[warn] text`) at its level; a line without a known prefix is `info`, whole. */
const consoleLine = (line: string): LoggedLine => {
  const match = /^\[(\w+)\] /.exec(line)
  const level = match === null ? undefined : CONSOLE_LEVELS[match[1] ?? ""]
  return match === null || level === undefined ? { level: "info", text: line } : { level, text: line.slice(match[0].length) }
}

const EMPTY_OBJECT_SCHEMA = { type: "object", properties: {}, additionalProperties: false } as const

const isNullSchema = (schema: unknown): boolean => isJsonObject(schema) && schema["type"] === "null" && Object.keys(schema).length === 1

/**
 * A JSON Schema with `null` taken out of every optional property: an optional key of a Schema is
 * rendered as "the type or null", but the decoder takes a missing key, never a `null` one, so a
 * client told it may send `null` is refused for doing so. Descends into nested objects, items,
 * alternatives and definitions.
 */
const withoutNullForOptional = (schema: unknown): unknown => {
  if (Array.isArray(schema)) return schema.map(withoutNullForOptional)
  if (!isJsonObject(schema)) return schema
  const required = Array.isArray(schema["required"]) ? (schema["required"] as ReadonlyArray<unknown>) : []
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => {
      if (key !== "properties" || !isJsonObject(value)) return [key, withoutNullForOptional(value)]
      const properties = Object.entries(value).map(([name, property]) => {
        const members = isJsonObject(property) && Array.isArray(property["anyOf"]) ? (property["anyOf"] as ReadonlyArray<unknown>) : undefined
        if (required.includes(name) || members === undefined || !members.some(isNullSchema)) return [name, withoutNullForOptional(property)]
        const rest = members.filter((member) => !isNullSchema(member))
        const { anyOf: _alternatives, ...beside } = property as JsonObject
        const narrowed = rest.length === 1 && isJsonObject(rest[0]) ? { ...rest[0], ...beside } : { ...beside, anyOf: rest }
        return [name, withoutNullForOptional(narrowed)]
      })
      return [key, Object.fromEntries(properties)]
    })
  )
}

/**
 * The JSON Schema an MCP client is given for a Schema's input, and whether the input is "nothing":
 * MCP arguments are always an object, so a tool that takes no input is offered an empty object and
 * called with none.
 */
const inputOf = (schema: Schema.Top): { readonly inputSchema: McpSchema.ToolJson; readonly takesNothing: boolean } => {
  const document = Schema.toJsonSchemaDocument(schema)
  const definitions = Object.keys(document.definitions).length === 0 ? {} : { $defs: withoutNullForOptional(document.definitions) }
  const given = withoutNullForOptional(document.schema) as JsonObject
  // An optional input (an object or nothing) is offered as its object: MCP arguments are never absent.
  const members = Array.isArray(given["anyOf"]) ? (given["anyOf"] as ReadonlyArray<JsonObject>) : undefined
  const objectMember = members?.find((member) => member["type"] === "object")
  const root = objectMember !== undefined && members?.every((member) => member === objectMember || member["type"] === "null") ? objectMember : given
  if (root["type"] === "object") return { inputSchema: { ...root, ...definitions } as McpSchema.ToolJson, takesNothing: false }
  return { inputSchema: EMPTY_OBJECT_SCHEMA, takesNothing: root["type"] === "null" }
}


const isJsonObject = (value: unknown): value is JsonObject => typeof value === "object" && value !== null && !Array.isArray(value)

/** A tool's answer as an MCP result: structured content (an object; anything else under `result`) and its text. */
const answerResult = (answer: ToolAnswer): McpSchema.CallToolResult => {
  if (!answer.ok) {
    // The refusal's own tag and message come first and are never taken over by a field of the same name.
    const fields = Object.fromEntries(Object.entries(answer.error.fields).filter(([key]) => key !== "_tag" && key !== "message"))
    const error = { _tag: answer.error._tag, message: answer.error.message, ...fields }
    return new McpSchema.CallToolResult({
      isError: true,
      structuredContent: error,
      content: [McpSchema.TextContent.make({ type: "text", text: `${answer.error._tag}: ${answer.error.message}` })]
    })
  }
  const structured = isJsonObject(answer.output) ? answer.output : { result: answer.output ?? null }
  return new McpSchema.CallToolResult({
    isError: false,
    structuredContent: structured,
    content: [McpSchema.TextContent.make({ type: "text", text: resultText(answer.output ?? null) })]
  })
}

const refused = (_tag: string, message: string): McpSchema.CallToolResult => answerResult({ ok: false, error: { _tag, message, fields: {} } })

/** An MCP tool over one operation of the host's code-mode tree: the model sees the same operation either way. */
const treeTool = (
  name: string,
  effect: ToolEffect,
  preview: HostToolTree,
  pick: (tree: HostToolTree) => Tool,
  updates: ReadonlyArray<string> = []
): McpToolEntry => {
  const operation = pick(preview)
  const { inputSchema, takesNothing } = inputOf(operation.input)
  return {
    tool: new McpSchema.Tool({ name, description: operation.description, inputSchema, annotations: ANNOTATIONS[effect] }),
    updates,
    call: (host, call, args) => {
      if (takesNothing && args !== undefined && Object.keys(args).length > 0) {
        const given = Object.keys(args)
        const shown = given.slice(0, 5).map((key) => JSON.stringify(key.slice(0, 40))).join(", ")
        return Effect.succeed(refused("ToolInputError", `invalid input: ${name} takes no arguments, got ${shown}${given.length > 5 ? ` and ${given.length - 5} more` : ""}`))
      }
      const tool = pick(host.tools({ channel: collectingChannel(MCP_CHANNEL_ID), sessionId: call.sessionId }))
      return answerToolCall(tool, takesNothing ? undefined : (args ?? {})).pipe(Effect.map(answerResult))
    }
  }
}

const ExecuteInput = Schema.Struct({
  code: Schema.String.annotate({ description: "The body of an async function: use await at the top level and return a JSON value." }),
  timeoutMs: Schema.optional(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 60_000 }))).annotate({
    description: "How long the code may run, in milliseconds (default 5000)."
  })
})

/** Where the whole catalog preview (every global's TypeScript declarations) is read: `execute`'s description only summarises it. */
export const CODEMODE_INSTRUCTIONS_URI = "armory://codemode/instructions"

/** The goal snapshot a host injects each turn, as a resource. */
export const SNAPSHOT_URI = "armory://goals/snapshot"

/** The most tool names of the MCP servers `execute`'s description names; the declarations resource has them all. */
const MAX_NAMED_SERVER_TOOLS = 40

const namedOperations = (operations: Readonly<Record<string, string>>): string =>
  Object.entries(operations)
    .map(([operation, tool]) => `${operation} (${tool})`)
    .join(", ")

/**
 * `execute`'s description: what the sandbox is and a summary of its globals, derived from the same
 * tables as the tools (each `goals` and `skills` operation is the MCP tool of the same input and
 * answer), short enough that a host does not cut it; the declarations are the resource.
 */
const executeDescription = (host: HostShape, pageTools: boolean): string => {
  const preview: Readonly<Record<string, unknown>> = host.tools({ channel: collectingChannel(MCP_CHANNEL_ID) })
  const hostNamespaces: ReadonlyArray<string> = HOST_GLOBALS
  const servers = Object.entries(preview).filter(([name]) => !hostNamespaces.includes(name))
  let named = 0
  const serverLines = servers.map(([server, tree]) => {
    const names = Object.keys(typeof tree === "object" && tree !== null ? tree : {})
    const shown = names.slice(0, Math.max(0, MAX_NAMED_SERVER_TOOLS - named))
    named += shown.length
    return `  - \`tools.${server}\`: ${shown.join(", ")}${shown.length < names.length ? ` and ${names.length - shown.length} more` : ""}`
  })
  return [
    "Runs JavaScript in a sandbox, for work that takes several calls in one step: the code is the body of an async function (use `await` at the top level) and `return`s a JSON value. " +
      "The answer carries the result, the logs (`console.log`, at most 200 lines) and the messages sent with `channel.send`.",
    "Globals (each call takes one input object and answers a promise; a failed call throws an Error with `_tag` and `message`):",
    `- \`goals\`: ${namedOperations(GOAL_TOOL_NAMES)}: each takes and answers what the goal tool of that name does.`,
    `- \`skills\`: ${namedOperations(SKILL_TOOL_NAMES)}.`,
    "- `channel.send({ text })`: a message for the user, returned with the result.",
    pageTools
      ? `- \`page\`: ${namedOperations(PAGE_TOOL_NAMES)}: snapshot, act on one [ref=eN], snapshot again.`
      : "- `page`: no browser is connected; every call fails with DomainUnavailableError.",
    ...(servers.length === 0 ? [] : ["- The tools of the MCP servers this host was given, as `tools.<server>.<tool>(input)`:", ...serverLines]),
    "There is no fetch, require, process, timer or file system.",
    `The TypeScript declarations of every global, with each input and answer: the resource ${CODEMODE_INSTRUCTIONS_URI}.`
  ].join("\n")
}

/** `execute`'s answer as text: the whole answer, so a client that reads only the text part sees the logs and messages too. */
const executeText = (answer: {
  readonly status: string
  readonly result?: unknown
  readonly error?: unknown
  readonly logs: ReadonlyArray<string>
  readonly messages: ReadonlyArray<unknown>
}): string => resultText({ status: answer.status, ...(answer.status === "completed" ? { result: answer.result ?? null } : { error: answer.error }), logs: answer.logs, messages: answer.messages })

const executeTool = (host: HostShape, pageTools: boolean): McpToolEntry => {
  const decode = Schema.decodeUnknownResult(ExecuteInput)
  return {
    tool: new McpSchema.Tool({
      name: EXECUTE_TOOL_NAME,
      description: executeDescription(host, pageTools),
      inputSchema: inputOf(ExecuteInput).inputSchema,
      annotations: ANNOTATIONS.runs
    }),
    // The code may change the goal through `goals`.
    updates: [SNAPSHOT_URI],
    loggedLines: (result) => {
      const logs = isJsonObject(result.structuredContent) ? result.structuredContent["logs"] : undefined
      return Array.isArray(logs) ? logs.filter((line): line is string => typeof line === "string").map(consoleLine) : []
    },
    call: (running, call, args) => {
      const input = decode(args ?? {})
      if (input._tag === "Failure") return Effect.succeed(refused("ToolInputError", `invalid input: ${input.failure.message}`))
      const channel = collectingChannel(MCP_CHANNEL_ID)
      return running
        .execute(input.success.code, {
          channel,
          sessionId: call.sessionId,
          ...(input.success.timeoutMs === undefined ? {} : { timeoutMs: input.success.timeoutMs })
        })
        .pipe(
          Effect.map((result) => {
            const messages = [...channel.messages]
            const structured = { ...result, channel: { id: channel.id, messages } }
            return new McpSchema.CallToolResult({
              isError: result.status !== "completed",
              structuredContent: structured,
              content: [McpSchema.TextContent.make({ type: "text", text: executeText({ ...result, messages }) })]
            })
          }),
          Effect.catch((error) => Effect.succeed(refused(error._tag, error.message)))
        )
    }
  }
}

const ProbeInput = Schema.Struct({
  driver: Schema.optional(Schema.Literals(Object.keys(PROBE_DRIVERS) as Array<keyof typeof PROBE_DRIVERS>)).annotate({
    description: "The driver to probe (default agent-browser)."
  })
})

const probeTool = (): McpToolEntry => {
  const decode = Schema.decodeUnknownResult(ProbeInput)
  return {
    tool: new McpSchema.Tool({
      name: PROBE_TOOL_NAME,
      description:
        "Checks whether an external driver is there and is what it claims to be (identity-verified), and if not, what blocks it; never fails for an absent driver.",
      inputSchema: inputOf(ProbeInput).inputSchema,
      annotations: ANNOTATIONS.observes
    }),
    updates: [],
    call: (_host, _call, args) => {
      const input = decode(args ?? {})
      if (input._tag === "Failure") return Effect.succeed(refused("ToolInputError", `invalid input: ${input.failure.message}`))
      return Effect.promise(() => PROBE_DRIVERS[input.success.driver ?? "agent-browser"]()).pipe(
        Effect.map((result) => answerResult({ ok: true, output: result }))
      )
    }
  }
}

/**
 * The tools whose descriptions say what the host's tools are (`execute`'s is the catalog preview),
 * to be registered again when {@link HostShape.toolsChanged} says they changed.
 */
export const mcpToolsDescribingHostTools = (host: HostShape, options: { readonly pageTools?: boolean | undefined } = {}): ReadonlyArray<McpToolEntry> => [
  executeTool(host, options.pageTools === true)
]

/**
 * Every tool the MCP server offers, in the order it lists them: the goal tools and the skills tools
 * are the host's code-mode operations (one table, so the model sees the same operation either way),
 * then `execute` over all of them and `probe`.
 */
export const mcpTools = (host: HostShape, options: { readonly pageTools?: boolean | undefined } = {}): ReadonlyArray<McpToolEntry> => {
  const preview = host.tools({ channel: collectingChannel(MCP_CHANNEL_ID) })
  // The goal operations table says which operations change the goal; the skills tools only read.
  const goalTools = (Object.keys(GOAL_TOOL_NAMES) as Array<keyof typeof GOAL_TOOL_NAMES>).map((operation) =>
    isMutationName(operation)
      ? treeTool(GOAL_TOOL_NAMES[operation], "appends", preview, (tree) => tree.goals[operation], [SNAPSHOT_URI])
      : treeTool(GOAL_TOOL_NAMES[operation], "reads", preview, (tree) => tree.goals[operation])
  )
  const skillTools = (Object.keys(SKILL_TOOL_NAMES) as Array<keyof typeof SKILL_TOOL_NAMES>).map((operation) =>
    treeTool(SKILL_TOOL_NAMES[operation], "reads", preview, (tree) => tree.skills[operation])
  )
  const pageTools =
    options.pageTools === true
      ? (Object.keys(PAGE_TOOLS) as Array<keyof typeof PAGE_TOOLS>).map((operation) =>
          treeTool(PAGE_TOOLS[operation][0], PAGE_TOOLS[operation][1], preview, (tree) => tree.page[operation])
        )
      : []
  return [...goalTools, ...skillTools, ...mcpToolsDescribingHostTools(host, options), probeTool(), ...pageTools]
}
