import type { Tool, ToolTree } from "@armory/codemode"
import type { ValidateFunction } from "ajv"
import { Data, Effect, Schema } from "effect"
import { type McpClient, McpSchema } from "effect/ai"
import { cutText as cut } from "./internal/cutText.js"
import { check, CONTENT_SCHEMA, declared, type JsonObject, makeValidators, usableSchema } from "./McpToolSchemas.js"

/** A tool that answered with `isError`: the server's own words, bounded, reach the guest. */
export class McpToolError extends Schema.TaggedError<McpToolError>()("McpToolError", {
  server: Schema.String,
  tool: Schema.String,
  text: Schema.String
}) {
  override get message(): string {
    return `${this.server}.${this.tool} failed: ${this.text}`
  }
}

/** Two tool names of one server that become the same identifier: neither could be called by its name. */
export class McpToolNamesCollide extends Schema.TaggedError<McpToolNamesCollide>()("McpToolNamesCollide", {
  server: Schema.String,
  identifier: Schema.String,
  names: Schema.Array(Schema.String)
}) {
  override get message(): string {
    return `${this.server}: the tools ${this.names.map((name) => JSON.stringify(name)).join(" and ")} would both be tools.${this.server}.${this.identifier}`
  }
}

/**
 * A call the connection failed (the server exited, its answer was too large, it broke the
 * protocol): internal, so the guest is told only that the call failed, as for any host fault.
 */
class McpTransportFailure extends Data.TaggedError("McpTransportFailure")<{ readonly server: string; readonly tool: string; readonly reason: string }> {
  override get message(): string {
    return `${this.server}.${this.tool}: ${this.reason}`
  }
}

/** A tool left out of the tree, and why (its schema is unusable or too large). */
export interface SkippedMcpTool {
  readonly name: string
  readonly reason: string
}

/** Bounds on what a server's listing may cost: descriptions shown, error text passed on, tools offered. */
export const MAX_MCP_DESCRIPTION_CHARS = 2000
export const MAX_MCP_ERROR_TEXT_CHARS = 4000
/** The most tools of one server offered to code mode: the declarations a model reads grow with each. */
export const MAX_MCP_TOOLS = 500

const IDENTIFIER_CHAR = /[^A-Za-z0-9_$]/g

/**
 * A server or tool name as an identifier, predictably: every character outside `A-Z a-z 0-9 _ $`
 * becomes `_` (`get-sum` is `get_sum`), a leading digit gets a `_` before it, and `__proto__`, which
 * no object can hold as its own key, gets a `_` after it.
 */
export const mcpIdentifier = (name: string): string => {
  const replaced = name.replace(IDENTIFIER_CHAR, "_")
  const identifier = replaced === "" ? "_" : /^[0-9]/.test(replaced) ? `_${replaced}` : replaced
  return identifier === "__proto__" ? "__proto___" : identifier
}

const encodeResult = Schema.encodeSync(McpSchema.CallToolResult)

const errorText = (result: McpSchema.CallToolResult): string => {
  const texts = result.content.flatMap((block) => (block.type === "text" ? [block.text] : []))
  return cut(texts.length > 0 ? texts.join("\n") : "the tool reported an error and gave no text", MAX_MCP_ERROR_TEXT_CHARS)
}

/** One listed tool as a code-mode tool, or why it is left out. */
const toCodeModeTool = (
  server: string,
  client: McpClient.McpClient,
  tool: McpSchema.Tool,
  compile: (schema: JsonObject) => ValidateFunction
): { readonly tool: Tool } | { readonly reason: string } => {
  const input = usableSchema(tool.inputSchema, "inputSchema")
  if ("reason" in input) return input
  const output = tool.outputSchema === undefined ? undefined : usableSchema(tool.outputSchema, "outputSchema")
  if (output !== undefined && "reason" in output) return output
  let validateInput: ValidateFunction
  let validateOutput: ValidateFunction | undefined
  try {
    validateInput = compile(input.schema)
    validateOutput = output === undefined ? undefined : compile(output.schema)
  } catch (error) {
    return { reason: `its schema does not compile: ${cut(error instanceof Error ? error.message : String(error), 200)}` }
  }
  const required = Array.isArray(input.schema["required"]) ? input.schema["required"] : []
  const inputCodec = declared(input.schema, check(validateInput, "input"), `the input schema of ${tool.name}`)
  const description = cut(tool.description ?? tool.title ?? `The ${tool.name} tool of the ${server} MCP server.`, MAX_MCP_DESCRIPTION_CHARS)
  const run = (given: unknown) =>
    client.callTool({ tool, arguments: (given ?? {}) as Record<string, unknown> }).pipe(
      Effect.mapError((error) => new McpTransportFailure({ server, tool: tool.name, reason: error.message })),
      Effect.flatMap((result) => {
        if (result.isError === true) return Effect.fail(new McpToolError({ server, tool: tool.name, text: errorText(result) }))
        // Content blocks as the server sent them (an image's data is base64 text again), not as decoded.
        if (validateOutput === undefined) return Effect.succeed<unknown>(encodeResult(result).content)
        if (result.structuredContent === undefined) {
          return Effect.fail(new McpToolError({ server, tool: tool.name, text: "the tool declares an outputSchema but returned no structuredContent" }))
        }
        const valid = check(validateOutput, "structuredContent")(result.structuredContent)
        return valid === true ? Effect.succeed<unknown>(result.structuredContent) : Effect.fail(new McpToolError({ server, tool: tool.name, text: cut(valid, MAX_MCP_ERROR_TEXT_CHARS) }))
      })
    )
  return {
    tool: {
      description,
      // Arguments are always an object in MCP: a tool that requires none may be called with none.
      input: required.length === 0 ? Schema.UndefinedOr(inputCodec) : inputCodec,
      output: declared(output?.schema ?? CONTENT_SCHEMA, () => true, `the output of ${tool.name}`),
      run
    } as Tool
  }
}

/** The listed tools as one namespace of a tree, each under its identifier; a collision refuses the whole listing. */
export const mcpToolNamespace = (
  server: string,
  client: McpClient.McpClient,
  tools: ReadonlyArray<McpSchema.Tool>
): Effect.Effect<{ readonly tree: ToolTree; readonly skipped: ReadonlyArray<SkippedMcpTool> }, McpToolNamesCollide> =>
  Effect.suspend(() => {
    const compile = makeValidators()
    const byIdentifier = new Map<string, string>()
    const entries: Array<readonly [string, Tool]> = []
    const skipped: Array<SkippedMcpTool> = []
    for (const [index, tool] of tools.entries()) {
      if (index >= MAX_MCP_TOOLS) {
        skipped.push({ name: tool.name, reason: `the server lists ${tools.length} tools, more than the ${MAX_MCP_TOOLS} offered` })
        continue
      }
      const identifier = mcpIdentifier(tool.name)
      const taken = byIdentifier.get(identifier)
      if (taken !== undefined) return Effect.fail(new McpToolNamesCollide({ server, identifier, names: [taken, tool.name] }))
      byIdentifier.set(identifier, tool.name)
      const converted = toCodeModeTool(server, client, tool, compile)
      if ("reason" in converted) skipped.push({ name: tool.name, reason: converted.reason })
      else entries.push([identifier, converted.tool])
    }
    return Effect.succeed({ tree: Object.fromEntries(entries), skipped })
  })
