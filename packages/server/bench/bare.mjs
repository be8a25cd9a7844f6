// The anchor: a bare `node:http` server answering each route with the body the Armory server gave
// for it (read from the file named by argv[2]), with no routing, decoding or checks. Prints its URL.
import { readFileSync } from "node:fs"
import { createServer } from "node:http"

const bodies = JSON.parse(readFileSync(process.argv[2], "utf8"))
const server = createServer((request, response) => {
  const body = bodies[`${request.method} ${request.url?.split("?")[0]}`]
  request.resume()
  request.on("end", () => {
    response.writeHead(body === undefined ? 404 : 200, { "content-type": "application/json" })
    response.end(body ?? "{}")
  })
})
server.listen(0, "127.0.0.1", () => {
  const address = server.address()
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${address.port}` })}\n`)
})
process.on("SIGTERM", () => server.close(() => process.exit(0)))
