import { startScriptedApi, writeSse } from "./scriptedApi.js"

export interface ChatMessage {
  readonly role: string
  readonly content?: unknown
  readonly tool_call_id?: string
  readonly tool_calls?: ReadonlyArray<{ readonly id: string; readonly function: { readonly name: string; readonly arguments: string } }>
}

export interface ChatRequest {
  readonly model: string
  readonly messages: ReadonlyArray<ChatMessage>
  readonly tools?: ReadonlyArray<{ readonly type: string; readonly function: { readonly name: string; readonly description?: string; readonly parameters?: unknown } }>
}

/** What the scripted model answers next: a call of a tool, or text that ends the turn. */
export type ChatAnswer = { readonly tool: string; readonly input: Record<string, unknown> } | { readonly text: string }

/** The title every request that offers no tools gets: a host's side request (OpenCode names its sessions so). */
export const SIDE_REQUEST_ANSWER = "Scripted session"

/**
 * The OpenAI Chat Completions API (streamed as server-sent events) on 127.0.0.1. A request that
 * offers tools is the agent's turn and is answered from the script: `next(request, index)` for the
 * `index`-th such request. A request that offers none (OpenCode's title agent) gets
 * {@link SIDE_REQUEST_ANSWER} and leaves the script where it is. Every request is logged; any other
 * path answers 404 and is logged too.
 */
export const startChatCompletionsApi = async (next: (request: ChatRequest, index: number) => ChatAnswer) => {
  let answered = 0
  const api = await startScriptedApi<ChatRequest>({
    accepts: (method, path) => method === "POST" && path === "/v1/chat/completions",
    respond: (body, response) => {
      const agentTurn = (body.tools ?? []).length > 0
      const answer = agentTurn ? next(body, answered++) : { text: SIDE_REQUEST_ANSWER }
      const id = `chatcmpl_${answered}`
      const chunk = (delta: Record<string, unknown>, finish: string | null) => ({
        data: { id, object: "chat.completion.chunk", created: 1, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] }
      })
      const choices =
        "tool" in answer
          ? [chunk({ role: "assistant", tool_calls: [{ index: 0, id: `call_${answered}`, type: "function", function: { name: answer.tool, arguments: JSON.stringify(answer.input) } }] }, null), chunk({}, "tool_calls")]
          : [chunk({ role: "assistant", content: answer.text }, null), chunk({}, "stop")]
      writeSse(response, [
        ...choices,
        { data: { id, object: "chat.completion.chunk", created: 1, model: body.model, choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } } },
        { data: "[DONE]" }
      ])
    }
  })
  return {
    url: `${api.origin}/v1`,
    requests: api.requests,
    /** The agent's requests (those that offer tools), in order. */
    agentRequests: () => api.requests.flatMap((request) => (request.body !== undefined && (request.body.tools ?? []).length > 0 ? [request.body] : [])),
    close: api.close
  }
}

/** The text of a message's content, whether a string or a list of text parts. */
export const contentText = (content: unknown): string =>
  typeof content === "string"
    ? content
    : Array.isArray(content)
      ? content.map((part) => (typeof part === "object" && part !== null && "text" in part ? String(part.text) : "")).join("\n")
      : ""

/** The tool results a request carries back, oldest first, as the text the model reads. */
export const chatToolResults = (request: ChatRequest): ReadonlyArray<string> => request.messages.flatMap((message) => (message.role === "tool" ? [contentText(message.content)] : []))
