import { startScriptedApi, writeSse } from "./scriptedApi.js"

export interface MessagesRequest {
  readonly model: string
  readonly messages: ReadonlyArray<{ readonly role: string; readonly content: unknown }>
  readonly tools?: ReadonlyArray<{ readonly name: string }>
}

/** What the scripted model answers next: a call of a tool, or text that ends the turn. */
export type ScriptedAnswer = { readonly tool: string; readonly input: Record<string, unknown> } | { readonly text: string }

/**
 * The Anthropic Messages API (streamed as server-sent events) on 127.0.0.1, answering from a script:
 * `next(request, index)` says what the model does for the `index`-th request. Every request is
 * logged; any other path (token counting included) answers 404 and is logged too, so a test sees
 * everything the host asked.
 */
export const startAnthropicApi = async (next: (request: MessagesRequest, index: number) => ScriptedAnswer) => {
  let answered = 0
  const api = await startScriptedApi<MessagesRequest>({
    accepts: (method, path) => method === "POST" && path.startsWith("/v1/messages") && !path.startsWith("/v1/messages/count_tokens"),
    respond: (body, response) => {
      const answer = next(body, answered++)
      const block =
        "tool" in answer
          ? [
              { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: `toolu_${answered}`, name: answer.tool, input: {} } },
              { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: JSON.stringify(answer.input) } }
            ]
          : [
              { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
              { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: answer.text } }
            ]
      const events = [
        { type: "message_start", message: { id: `msg_${answered}`, type: "message", role: "assistant", model: body.model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } } },
        ...block,
        { type: "content_block_stop", index: 0 },
        { type: "message_delta", delta: { stop_reason: "tool" in answer ? "tool_use" : "end_turn", stop_sequence: null }, usage: { output_tokens: 5 } },
        { type: "message_stop" }
      ]
      writeSse(response, events.map((event) => ({ event: event.type, data: event })))
    }
  })
  return { url: api.origin, requests: api.requests, close: api.close }
}

/** The tool results a request carries back, newest last, as the text the model reads (and whether each is an error). */
export const toolResults = (request: MessagesRequest): ReadonlyArray<{ readonly text: string; readonly isError: boolean }> =>
  request.messages.flatMap((message) =>
    Array.isArray(message.content)
      ? (message.content as ReadonlyArray<Record<string, unknown>>).flatMap((block) => {
          if (block["type"] !== "tool_result") return []
          const content = block["content"]
          const text = typeof content === "string" ? content : Array.isArray(content) ? content.map((part) => (typeof part === "object" && part !== null && "text" in part ? String(part.text) : "")).join("") : ""
          return [{ text, isError: block["is_error"] === true }]
        })
      : []
  )
