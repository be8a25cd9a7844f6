import { agentsSection } from "@armory/host"
import { describe, expect, it } from "vitest"
import { MCP_SERVER_NAME, MCP_TOOL_NAMES } from "../src/index.js"

describe("what `armory init codex` tells the model about Armory's MCP server", () => {
  it("names this server and only tools it has", () => {
    const section = agentsSection([], () => undefined)
    expect(section).toContain(`MCP server \`${MCP_SERVER_NAME}\``)
    const named = [...section.matchAll(/`([a-z_]+)`/g)]
      .map((match) => match[1] ?? "")
      .filter((name) => name !== MCP_SERVER_NAME && name !== "tool_search" && !name.endsWith("_"))
    expect(named.length).toBeGreaterThan(4)
    for (const name of named) expect(MCP_TOOL_NAMES).toContain(name)
  })
})
