import { request as httpRequest, type IncomingMessage } from "node:http"
import { request as httpsRequest } from "node:https"
import { type Effect, Schema } from "effect"
import { describeFailure, unavailable } from "./internal/failure.js"
import { fromPromise } from "./internal/fromPromise.js"
import { BrowserUnavailableError } from "./RuntimeErrors.js"

/** What a browser's `/json/version` says about itself, once verified. */
export interface CdpVersion {
  /** e.g. `Chrome/156.0.8078.108`. */
  readonly browser: string
  readonly protocolVersion: string
  /** The browser-level DevTools websocket, on the probed host and port. */
  readonly webSocketDebuggerUrl: string
}

export interface ProbeCdpOptions {
  /** The whole exchange, connect to last byte; default 2000 ms. */
  readonly timeoutMs?: number
  /** Larger answers are refused unread; default 64 KiB. */
  readonly maxBodyBytes?: number
  /** Names the provider in the error; default `cdp`. */
  readonly provider?: string
}

export const DEFAULT_PROBE_TIMEOUT_MS = 2000
export const DEFAULT_PROBE_MAX_BODY_BYTES = 64 * 1024

const VersionDocument = Schema.Struct({
  Browser: Schema.String,
  "Protocol-Version": Schema.String,
  webSocketDebuggerUrl: Schema.String
})

const versionAddress = (cdpUrl: string): URL => {
  const base = new URL(cdpUrl)
  if (base.protocol !== "http:" && base.protocol !== "https:") {
    throw new Error(`expected an http or https address, got ${base.protocol}`)
  }
  if (base.username !== "" || base.password !== "") throw new Error("credentials in the address are not accepted")
  return new URL(`${base.origin}${base.pathname.replace(/\/+$/, "")}/json/version`)
}

const readBody = (address: URL, timeoutMs: number, maxBodyBytes: number): Promise<string> =>
  new Promise((resolve, reject) => {
    const request = (address.protocol === "https:" ? httpsRequest : httpRequest)(address, {
      method: "GET",
      headers: { accept: "application/json" }
    })
    // One deadline for the whole exchange: a server that trickles bytes cannot extend it.
    const deadline = setTimeout(() => request.destroy(new Error(`no complete answer within ${timeoutMs} ms`)), timeoutMs)
    const fail = (error: Error) => {
      clearTimeout(deadline)
      reject(error)
    }
    request.once("error", fail)
    request.once("response", (response: IncomingMessage) => {
      if (response.statusCode !== 200) {
        request.destroy(new Error(`HTTP ${response.statusCode ?? "?"} from ${address.pathname}`))
        return
      }
      const declared = Number(response.headers["content-length"])
      if (Number.isFinite(declared) && declared > maxBodyBytes) {
        request.destroy(new Error(`the answer declares ${declared} bytes, more than ${maxBodyBytes}`))
        return
      }
      const chunks: Array<Buffer> = []
      let size = 0
      response.on("data", (chunk: Buffer) => {
        size += chunk.length
        if (size > maxBodyBytes) request.destroy(new Error(`the answer exceeds ${maxBodyBytes} bytes`))
        else chunks.push(chunk)
      })
      response.once("error", fail)
      response.once("end", () => {
        clearTimeout(deadline)
        resolve(Buffer.concat(chunks).toString("utf8"))
      })
    })
    request.end()
  })

const verify = (address: URL, body: string): CdpVersion => {
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    throw new Error("the answer is not JSON")
  }
  const decoded = Schema.decodeUnknownResult(VersionDocument)(parsed)
  if (decoded._tag === "Failure") throw new Error("the answer is not a browser's /json/version (no webSocketDebuggerUrl)")
  const document = decoded.success
  let socket: URL
  try {
    socket = new URL(document.webSocketDebuggerUrl)
  } catch {
    throw new Error("webSocketDebuggerUrl is not a URL")
  }
  const expectedProtocol = address.protocol === "https:" ? "wss:" : "ws:"
  if (socket.protocol !== expectedProtocol) throw new Error(`webSocketDebuggerUrl is not a ${expectedProtocol} address`)
  if (socket.host !== address.host) throw new Error(`webSocketDebuggerUrl points at ${socket.host}, not the probed ${address.host}`)
  if (!socket.pathname.startsWith("/devtools/browser/")) throw new Error("webSocketDebuggerUrl is not a browser endpoint")
  return {
    browser: document.Browser,
    protocolVersion: document["Protocol-Version"],
    webSocketDebuggerUrl: socket.href
  }
}

/**
 * Asks `<cdpUrl>/json/version` whether a browser answers there, within one deadline and a bounded
 * body, and verifies the answer: JSON naming a browser websocket on the probed host and port.
 * Anything else (a Node inspector, an HTML page, a huge or endless answer, a websocket elsewhere)
 * rejects with `BrowserUnavailableError`; nothing is connected.
 */
export const probeCdp = async (cdpUrl: string, options: ProbeCdpOptions = {}): Promise<CdpVersion> => {
  const provider = options.provider ?? "cdp"
  try {
    const address = versionAddress(cdpUrl)
    const body = await readBody(
      address,
      options.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS,
      options.maxBodyBytes ?? DEFAULT_PROBE_MAX_BODY_BYTES
    )
    return verify(address, body)
  } catch (error) {
    throw unavailable({ provider, endpoint: cdpUrl, reason: describeFailure(error) })
  }
}

/** {@link probeCdp} as an Effect. */
export const probeCdpEffect = (cdpUrl: string, options: ProbeCdpOptions = {}): Effect.Effect<CdpVersion, BrowserUnavailableError> =>
  fromPromise(
    () => probeCdp(cdpUrl, options),
    (error) => error instanceof BrowserUnavailableError
  )
