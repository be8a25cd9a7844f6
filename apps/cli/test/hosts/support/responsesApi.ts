import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

export interface ResponsesRequest {
  readonly model: string
  readonly input: ReadonlyArray<Record<string, unknown>>
  readonly tools?: ReadonlyArray<Record<string, unknown>>
}

/** What the scripted model answers next: a call of a tool offered in a namespace, or text that ends the turn. */
export type ResponsesAnswer = { readonly namespace: string; readonly tool: string; readonly input: Record<string, unknown> } | { readonly text: string }

const readBody = async (request: IncomingMessage): Promise<string> => {
  const chunks: Array<Buffer> = []
  for await (const chunk of request) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)))
  return Buffer.concat(chunks).toString("utf8")
}

const sse = (response: ServerResponse, events: ReadonlyArray<Record<string, unknown>>) => {
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" })
  for (const event of events) response.write(`event: ${String(event["type"])}\ndata: ${JSON.stringify(event)}\n\n`)
  response.end()
}

/**
 * The OpenAI Responses API (streamed as server-sent events) on 127.0.0.1, answering from a script:
 * `next(request, index)` says what the model does for the `index`-th request. Every request is
 * logged; any other path answers 404 and is logged too.
 */
export const startResponsesApi = async (next: (request: ResponsesRequest, index: number) => ResponsesAnswer) => {
  const requests: Array<{ readonly method: string; readonly path: string; readonly body: ResponsesRequest | undefined }> = []
  let answered = 0
  const server = createServer((request, response) => {
    void readBody(request).then((text) => {
      const path = request.url ?? ""
      const body = text === "" ? undefined : (JSON.parse(text) as ResponsesRequest)
      requests.push({ method: request.method ?? "", path, body })
      if (request.method !== "POST" || path !== "/v1/responses" || body === undefined) {
        response.writeHead(404).end()
        return
      }
      const answer = next(body, answered++)
      const id = `resp_${answered}`
      const item =
        "tool" in answer
          ? { type: "function_call", id: `fc_${answered}`, call_id: `call_${answered}`, name: answer.tool, namespace: answer.namespace, arguments: JSON.stringify(answer.input) }
          : { type: "message", role: "assistant", id: `msg_${answered}`, content: [{ type: "output_text", text: answer.text, annotations: [] }] }
      sse(response, [
        { type: "response.created", response: { id } },
        { type: "response.output_item.added", output_index: 0, item },
        { type: "response.output_item.done", output_index: 0, item },
        { type: "response.completed", response: { id, usage: { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 } } }
      ])
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}/v1`, requests, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

/** The tool outputs a request carries back, oldest first, as the text the model reads. */
export const functionOutputs = (request: ResponsesRequest): ReadonlyArray<string> =>
  request.input.flatMap((item) => {
    if (item["type"] !== "function_call_output") return []
    const output = item["output"]
    if (typeof output === "string") return [output]
    return [Array.isArray(output) ? output.map((part) => (typeof part === "object" && part !== null && "text" in part ? String(part.text) : "")).join("\n") : JSON.stringify(output)]
  })
