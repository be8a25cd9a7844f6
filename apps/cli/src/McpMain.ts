import { initializeAnswer } from "@armory/mcp/initialize"
import { ARMORY_VERSION } from "./internal/Version.js"

/** The most read of the first message before the server loads; a longer one is left to the server's own bound. */
const MAX_FIRST_LINE_BYTES = 1024 * 1024

/** Standard input up to its first newline (or its end, or the bound), without consuming more than one chunk past it. */
const firstChunks = (): Promise<{ readonly bytes: Buffer; readonly line: string | undefined }> =>
  new Promise((resolve) => {
    const chunks: Array<Buffer> = []
    let bytes = 0
    const done = (line: string | undefined) => {
      process.stdin.off("data", onData)
      process.stdin.off("end", onEnd)
      process.stdin.pause()
      resolve({ bytes: Buffer.concat(chunks), line })
    }
    const onData = (chunk: Buffer) => {
      chunks.push(chunk)
      bytes += chunk.length
      const newline = chunk.indexOf(10)
      if (newline !== -1) done(Buffer.concat(chunks).subarray(0, bytes - chunk.length + newline).toString("utf8"))
      else if (bytes > MAX_FIRST_LINE_BYTES) done(undefined)
    }
    const onEnd = () => done(undefined)
    process.stdin.on("data", onData)
    process.stdin.on("end", onEnd)
  })

/**
 * `armory mcp` on stdio. A host waits for the answer to `initialize` before it offers the model any
 * tool, and loading the server (Effect, the host, its packages) takes several times Node's own
 * start: so the first message, when it is a well-formed `initialize`, is answered here, from the
 * same tables the server answers from, and the server is loaded with what was read given to it
 * first and its own answer to that request held back. Anything else is left to the server whole.
 */
export const runMcp = async (): Promise<void> => {
  const first = await firstChunks()
  const answered = first.line === undefined ? undefined : initializeAnswer(first.line, ARMORY_VERSION)
  if (answered !== undefined) process.stdout.write(`${answered.response}\n`)
  const { main } = await import("./Main.js")
  main({ bytes: first.bytes, answeredId: answered?.id })
}
