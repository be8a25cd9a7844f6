// A process serving Armory's MCP server on stdio, configured by the JSON in argv[2], logging to stderr.
import { serveMcpStdio } from "@armory/mcp"

const options = JSON.parse(process.argv[2] ?? "{}")
await serveMcpStdio({ ...options, catalog: { settle: 50, ...options.catalog }, logger: { error: (line) => process.stderr.write(`${line}\n`) } })
