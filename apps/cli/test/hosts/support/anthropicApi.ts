import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

/** One request the host sent, as the scripted model saw it. */
export interface LoggedRequest {
  readonly method: string
  readonly path: string
  readonly body: MessagesRequest | undefined
}

export interface MessagesRequest {
  readonly model: string
  readonly messages: ReadonlyArray<{ readonly role: string; readonly content: unknown }>
  readonly tools?: ReadonlyArray<{ readonly name: string }>
}

/** What the scripted model answers next: a call of a tool, or text that ends the turn. */
export type ScriptedAnswer = { readonly tool: string; readonly input: Record<string, unknown> } | { readonly text: string }

const sse = (response: ServerResponse, events: ReadonlyArray<Record<string, unknown>>) => {
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" })
  for (const event of events) response.write(`event: ${String(event["type"])}\ndata: ${JSON.stringify(event)}\n\n`)
  response.end()
}

const readBody = async (request: IncomingMessage): Promise<string> => {
  const chunks: Array<Buffer> = []
  for await (const chunk of request) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)))
  return Buffer.concat(chunks).toString("utf8")
}

/**
 * The Anthropic Messages API (streamed as server-sent events) on 127.0.0.1, answering from a script:
 * `next(request, index)` says what the model does for the `index`-th request. Every request is
 * logged; any other path answers 404 and is logged too, so a test sees everything the host asked.
 */
export const startAnthropicApi = async (next: (request: MessagesRequest, index: number) => ScriptedAnswer) => {
  const requests: Array<LoggedRequest> = []
  let answered = 0
  const server = createServer((request, response) => {
    void readBody(request).then((text) => {
      const path = request.url ?? ""
      const body = text === "" ? undefined : (JSON.parse(text) as MessagesRequest)
      requests.push({ method: request.method ?? "", path, body })
      if (request.method !== "POST" || !path.startsWith("/v1/messages") || path.startsWith("/v1/messages/count_tokens") || body === undefined) {
        response.writeHead(404).end()
        return
      }
      const answer = next(body, answered++)
      const id = `msg_${answered}`
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
      sse(response, [
        { type: "message_start", message: { id, type: "message", role: "assistant", model: body.model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } } },
        ...block,
        { type: "content_block_stop", index: 0 },
        { type: "message_delta", delta: { stop_reason: "tool" in answer ? "tool_use" : "end_turn", stop_sequence: null }, usage: { output_tokens: 5 } },
        { type: "message_stop" }
      ])
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
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
