import { connect, createServer, type Socket } from "node:net"

/**
 * A TCP proxy in front of the real PostgreSQL that can cut a connection at the one moment a test
 * needs: just before the server receives a COMMIT, or just after the server committed but before the
 * client hears about it. It never alters a byte it forwards.
 */
export interface PgProxy {
  /** The test database's URL, through the proxy. */
  readonly url: string
  /** Cuts the next connection that sends anything, before the server sees it (a COMMIT lost on the way). */
  readonly dropNextRequest: () => void
  /** Cuts the connection whose server answers `COMMIT`, before the client receives it (a commit whose answer is lost). */
  readonly dropCommitAnswer: () => void
  /** Cuts the next connection that sends a message containing `text`, before the server sees it. */
  readonly dropNextRequestContaining: (text: string) => void
  /** While on, every new connection is closed at once: the database is unreachable. */
  readonly refuseConnections: (refuse: boolean) => void
  /** How many connections an armed drop has cut so far, so a test can tell its faults really happened. */
  readonly cuts: () => number
  readonly close: () => Promise<void>
}

/** CommandComplete (`C`, length 11) with the tag `COMMIT`, as the server sends it. */
const COMMIT_COMPLETE = Buffer.from([0x43, 0, 0, 0, 11, ...Buffer.from("COMMIT"), 0])

export const startProxy = async (target: URL): Promise<PgProxy> => {
  let dropRequest = false
  let dropContaining: string | undefined
  let dropAnswer = false
  let refusing = false
  let cuts = 0
  const sockets = new Set<Socket>()
  const server = createServer((client) => {
    if (refusing) {
      client.destroy()
      return
    }
    const upstream = connect(Number(target.port || 5432), target.hostname)
    sockets.add(client).add(upstream)
    const cut = () => {
      client.destroy()
      upstream.destroy()
    }
    client.on("data", (chunk: Buffer) => {
      // Each cut is armed on its own, so two armed together hit two different requests in turn.
      if (dropRequest) {
        dropRequest = false
        cuts += 1
        cut()
        return
      }
      if (dropContaining !== undefined && chunk.includes(dropContaining)) {
        dropContaining = undefined
        cuts += 1
        cut()
        return
      }
      upstream.write(chunk)
    })
    upstream.on("data", (chunk: Buffer) => {
      if (dropAnswer && chunk.includes(COMMIT_COMPLETE)) {
        dropAnswer = false
        cuts += 1
        cut()
        return
      }
      client.write(chunk)
    })
    for (const socket of [client, upstream]) {
      socket.on("error", cut)
      socket.on("close", () => {
        sockets.delete(socket)
        cut()
      })
    }
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  if (address === null || typeof address === "string") throw new Error("the proxy has no TCP address")
  const url = new URL(target.href)
  url.host = `127.0.0.1:${address.port}`
  return {
    url: url.href,
    dropNextRequest: () => {
      dropRequest = true
    },
    dropCommitAnswer: () => {
      dropAnswer = true
    },
    dropNextRequestContaining: (text) => {
      dropContaining = text
    },
    refuseConnections: (refuse) => {
      refusing = refuse
    },
    cuts: () => cuts,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      })
  }
}
