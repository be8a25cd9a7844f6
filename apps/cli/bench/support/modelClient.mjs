// What the MCP benchmarks share: a model-side client that counts what a model would read.
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"

/** Connects the official MCP client to a server over stdio; the client is added to `clients`, to be closed by the caller. */
export const connectClient = async (clients, command, args, { env, cwd }) => {
  const client = new Client({ name: "armory-bench", version: "0.0.0" })
  clients.push(client)
  await client.connect(new StdioClientTransport({ command, args, cwd, stderr: "ignore", ...(env === undefined ? {} : { env }) }))
  return client
}

/** The text of a tool result, as a model reads it. */
export const textOf = (result) => (result.content ?? []).map((part) => (part.type === "text" ? part.text : JSON.stringify(part))).join("\n")

/**
 * Calls tools as a model would, counting the bytes of text each answer hands it, the calls and the
 * turns (a turn is one model step; its calls run in parallel). A failed call fails the benchmark.
 */
export const modelReader = (client) => {
  let bytes = 0
  let calls = 0
  let turns = 0
  const call = async (name, args) => {
    const result = await client.callTool({ name, arguments: args })
    const text = textOf(result)
    if (result.isError === true) throw new Error(`${name} failed: ${text}`)
    bytes += Buffer.byteLength(text)
    calls += 1
    return text
  }
  const turn = async (requests) => {
    turns += 1
    return Promise.all(requests.map(([name, args]) => call(name, args)))
  }
  return { call, turn, read: () => ({ bytes, calls, turns }) }
}

/** Runs a task and adds its wall time in milliseconds to what it measured. */
export const timed = async (task) => {
  const started = process.hrtime.bigint()
  const measured = await task()
  return { ...measured, ms: Number(process.hrtime.bigint() - started) / 1e6 }
}

export const median = (values) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)]

/** Prints a benchmark's rows as a table and saves its record as bench-results/<name>.json. */
export const reportResults = (name, record) => {
  console.table(record.rows)
  const directory = join(import.meta.dirname, "..", "..", "bench-results")
  mkdirSync(directory, { recursive: true })
  writeFileSync(join(directory, `${name}.json`), `${JSON.stringify(record, null, 2)}\n`)
}
