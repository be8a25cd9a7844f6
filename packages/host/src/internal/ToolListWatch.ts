import { Effect, Layer, Stream } from "effect"
import type { McpClient, McpSchema } from "effect/ai"
import { ChildProcessSpawner } from "effect/process"

const LIST_CHANGED = Buffer.from("notifications/tools/list_changed")

/**
 * Whether a server's tools may have changed since they were last listed. A server that declares
 * `tools.listChanged` promises to send `notifications/tools/list_changed` when they do; over stdio
 * that notification is seen here, so such a server is listed again only after it said so. Any other
 * server (one that promises nothing, or one reached over HTTP, where no notification stream is open)
 * may change its tools unannounced, so it is always stale and listed before every execution.
 */
export interface ToolListWatch {
  readonly stale: () => boolean
  /** Called just before a listing is asked for: a notification that arrives while it runs makes the list stale again. */
  readonly listing: () => void
  /** A listing that failed leaves the list stale. */
  readonly failed: () => void
  /** The server's stdout, as it arrives, watched for the notification. */
  readonly spawner: Layer.Layer<ChildProcessSpawner.ChildProcessSpawner, never, ChildProcessSpawner.ChildProcessSpawner>
  /** A stdio transport, watched for what the server declared when it was initialized. */
  readonly transport: (transport: McpClient.Transport) => McpClient.Transport
}

const promisesListChanged = (response: McpSchema.JsonRpcResponse): boolean => {
  const result: unknown = Reflect.get(response, "result")
  const capabilities: unknown = typeof result === "object" && result !== null ? Reflect.get(result, "capabilities") : undefined
  const tools: unknown = typeof capabilities === "object" && capabilities !== null ? Reflect.get(capabilities, "tools") : undefined
  return typeof tools === "object" && tools !== null && Reflect.get(tools, "listChanged") === true
}

/** `onNotified` is told each time the notification is seen. */
export const makeToolListWatch = (onNotified: () => void): ToolListWatch => {
  let promised = false
  let changed = true
  // The notification is recognised by its method name anywhere in the output, even split across
  // chunks; a tool answer that merely quotes it costs one listing more, never one less.
  let tail = Buffer.alloc(0)
  const scan = (chunk: Uint8Array) => {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
    const keep = LIST_CHANGED.length - 1
    const seam = Buffer.concat([tail, bytes.subarray(0, keep)])
    if (bytes.includes(LIST_CHANGED) || seam.includes(LIST_CHANGED)) {
      changed = true
      onNotified()
    }
    tail = Buffer.from(bytes.length >= keep ? bytes.subarray(bytes.length - keep) : Buffer.concat([tail, bytes]).subarray(-keep))
  }
  return {
    stale: () => !promised || changed,
    listing: () => {
      changed = false
    },
    failed: () => {
      changed = true
    },
    spawner: Layer.effect(
      ChildProcessSpawner.ChildProcessSpawner,
      Effect.map(Effect.service(ChildProcessSpawner.ChildProcessSpawner), (inner) =>
        ChildProcessSpawner.make((command) =>
          Effect.map(inner.spawn(command), (handle) =>
            ChildProcessSpawner.makeHandle({
              pid: handle.pid,
              exitCode: handle.exitCode,
              isRunning: handle.isRunning,
              kill: handle.kill,
              stdin: handle.stdin,
              stdout: Stream.tap(handle.stdout, (chunk) => Effect.sync(() => scan(chunk))),
              stderr: handle.stderr,
              all: handle.all,
              getInputFd: handle.getInputFd,
              getOutputFd: handle.getOutputFd,
              unref: handle.unref
            })
          )
        )
      )
    ),
    transport: (transport) => ({
      ...transport,
      request: (message, tool) =>
        Effect.tap(transport.request(message, tool), (response) =>
          Effect.sync(() => {
            if (message.method === "initialize") promised = promisesListChanged(response)
          })
        )
    })
  }
}
