import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

/** One request a host sent, as the scripted model saw it. */
export interface LoggedRequest<Body> {
  readonly method: string
  readonly path: string
  readonly body: Body | undefined
}

const readBody = async (request: IncomingMessage): Promise<string> => {
  const chunks: Array<Buffer> = []
  for await (const chunk of request) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)))
  return Buffer.concat(chunks).toString("utf8")
}

/** Server-sent events: each with its `event:` line when it names one, then `data:`; `[DONE]` is sent as is. */
export const writeSse = (response: ServerResponse, events: ReadonlyArray<{ readonly event?: string; readonly data: unknown }>): void => {
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" })
  for (const { event, data } of events) response.write(`${event === undefined ? "" : `event: ${event}\n`}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`)
  response.end()
}

/**
 * A model API on 127.0.0.1 that logs every request the host sends, whatever its path; a request the
 * API `accepts` (by method and path, with a JSON body) is answered by `respond`, anything else 404.
 */
export const startScriptedApi = async <Body>(options: {
  readonly accepts: (method: string, path: string) => boolean
  readonly respond: (body: Body, response: ServerResponse) => void
}) => {
  const requests: Array<LoggedRequest<Body>> = []
  const server = createServer((request, response) => {
    void readBody(request).then((text) => {
      const method = request.method ?? ""
      const path = request.url ?? ""
      const body = text === "" ? undefined : (JSON.parse(text) as Body)
      requests.push({ method, path, body })
      if (body === undefined || !options.accepts(method, path)) {
        response.writeHead(404).end()
        return
      }
      options.respond(body, response)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

/**
 * A model's side of a conversation as a list: the answer to the `index`-th request, where a function
 * step reads the request first (a tool result, say); past the end, `done` ends the turn.
 */
export const scriptSteps =
  <Request, Answer>(steps: ReadonlyArray<Answer | ((request: Request) => Answer)>, done: Answer) =>
  (request: Request, index: number): Answer => {
    const step = steps[index] ?? done
    return typeof step === "function" ? (step as (request: Request) => Answer)(request) : step
  }
