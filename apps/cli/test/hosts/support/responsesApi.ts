import { startScriptedApi, writeSse } from "./scriptedApi.js"

export interface ResponsesRequest {
  readonly model: string
  readonly input: ReadonlyArray<Record<string, unknown>>
  readonly tools?: ReadonlyArray<Record<string, unknown>>
}

/**
 * What the scripted model answers next: a call of a function tool (in a namespace, as Codex offers
 * MCP tools), a call of a freeform tool (Codex's `apply_patch`, whose input is the patch text), a
 * search of the tools the host holds back (Codex's client-side `tool_search`), or text that ends the
 * turn.
 */
export type ResponsesAnswer =
  | { readonly namespace?: string; readonly tool: string; readonly input: Record<string, unknown> }
  | { readonly freeform: string; readonly input: string }
  | { readonly toolSearch: string; readonly limit: number }
  | { readonly text: string }

const outputItem = (answer: ResponsesAnswer, index: number): Record<string, unknown> => {
  if ("toolSearch" in answer) return { type: "tool_search_call", id: `tsc_${index}`, call_id: `call_${index}`, status: "completed", execution: "client", arguments: { query: answer.toolSearch, limit: answer.limit } }
  if ("freeform" in answer) return { type: "custom_tool_call", id: `ctc_${index}`, call_id: `call_${index}`, name: answer.freeform, input: answer.input }
  if ("tool" in answer) return { type: "function_call", id: `fc_${index}`, call_id: `call_${index}`, name: answer.tool, ...(answer.namespace === undefined ? {} : { namespace: answer.namespace }), arguments: JSON.stringify(answer.input) }
  return { type: "message", role: "assistant", id: `msg_${index}`, content: [{ type: "output_text", text: answer.text, annotations: [] }] }
}

/**
 * The OpenAI Responses API (streamed as server-sent events) on 127.0.0.1, answering from a script:
 * `next(request, index)` says what the model does for the `index`-th request. Every request is
 * logged; any other path answers 404 and is logged too.
 */
export const startResponsesApi = async (next: (request: ResponsesRequest, index: number) => ResponsesAnswer) => {
  let answered = 0
  const api = await startScriptedApi<ResponsesRequest>({
    accepts: (method, path) => method === "POST" && path === "/v1/responses",
    respond: (body, response) => {
      const item = outputItem(next(body, answered++), answered)
      const id = `resp_${answered}`
      const events = [
        { type: "response.created", response: { id } },
        { type: "response.output_item.added", output_index: 0, item },
        { type: "response.output_item.done", output_index: 0, item },
        { type: "response.completed", response: { id, usage: { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 } } }
      ]
      writeSse(response, events.map((event) => ({ event: event.type, data: event })))
    }
  })
  return { url: `${api.origin}/v1`, requests: api.requests, close: api.close }
}

/** The tool outputs a request carries back, oldest first, as the text the model reads. */
export const functionOutputs = (request: ResponsesRequest): ReadonlyArray<string> =>
  request.input.flatMap((item) => {
    if (item["type"] !== "function_call_output" && item["type"] !== "custom_tool_call_output") return []
    const output = item["output"]
    if (typeof output === "string") return [output]
    return [Array.isArray(output) ? output.map((part) => (typeof part === "object" && part !== null && "text" in part ? String(part.text) : "")).join("\n") : JSON.stringify(output)]
  })
