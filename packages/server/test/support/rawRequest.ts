import { request } from "node:http"

export interface RawResponse {
  readonly status: number
  readonly headers: Record<string, string | Array<string> | undefined>
  readonly body: string
}

/**
 * One HTTP request with full control of the headers (fetch refuses to set `Host`) and, with `path`,
 * of the request target as sent (a URL would resolve its dot segments first).
 */
export const rawRequest = (
  url: string,
  options: { readonly method?: string; readonly headers?: Record<string, string>; readonly body?: string | Buffer; readonly path?: string } = {}
): Promise<RawResponse> =>
  new Promise((resolve, reject) => {
    const target = { method: options.method ?? "GET", headers: options.headers ?? {}, ...(options.path === undefined ? {} : { path: options.path }) }
    const outgoing = request(url, target, (incoming) => {
      const chunks: Array<Buffer> = []
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk))
      incoming.on("end", () =>
        resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body: Buffer.concat(chunks).toString("utf8") })
      )
    })
    outgoing.on("error", reject)
    outgoing.end(options.body)
  })
