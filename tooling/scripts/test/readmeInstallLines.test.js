import { assignExamples, installLines } from "@armory/config/readme-examples"
import { describe, expect, it } from "vitest"

const readme = [
  "# pkg",
  "```sh",
  "npm install @armory/client                      # the fetch client",
  "npm i --save-exact @armory/api@^1.2 effect@4.1.0",
  "armory serve --port 4318",
  "```",
  "```ts",
  'import { x } from "not-an-install-line"',
  "```",
  "```bash",
  "pnpm add -D @modelcontextprotocol/server-everything",
  "```"
].join("\n")

describe("a README's install lines", () => {
  it("are the packages each npm install, npm i or pnpm add line of a shell block names, without versions, flags or comments", () => {
    expect(installLines(readme)).toEqual([["@armory/client"], ["@armory/api", "effect"], ["@modelcontextprotocol/server-everything"]])
  })

  it("are none for a README that only shows other commands", () => {
    expect(installLines("```sh\narmory serve\nnpx @armory/cli init\n```\n")).toEqual([])
  })
})

describe("the install line an example runs with", () => {
  const lines = [["@armory/client"], ["@armory/client", "@armory/api", "effect"], ["@modelcontextprotocol/server-everything"]]

  it("is the first line that, with the lines before it, installs every package the example loads", () => {
    const fetchClient = 'import { createClient } from "@armory/client"\nimport { readFile } from "node:fs/promises"\nimport "./local.js"'
    const effectClient = 'import { Effect } from "effect"\nimport { FetchHttpClient } from "effect/http"\nimport { makeArmoryClient } from "@armory/client/effect"'
    const startsAServer = 'const server = createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/dist/index.js")\nawait import("effect")'
    expect(assignExamples(lines, [fetchClient, effectClient, startsAServer])).toEqual([
      { stage: 0, missing: [] },
      { stage: 1, missing: [] },
      { stage: 2, missing: [] }
    ])
  })

  it("is none when a package the example imports is on no line, and the packages missing are named", () => {
    const embedsAServer = 'import { createClient } from "@armory/client"\nimport { serverLayer } from "@armory/server"\nexport { Host } from "@armory/host"'
    expect(assignExamples(lines, [embedsAServer])).toEqual([{ stage: -1, missing: ["@armory/server", "@armory/host"] }])
    expect(assignExamples([], ['import { execute } from "@armory/codemode"'])).toEqual([{ stage: -1, missing: ["@armory/codemode"] }])
  })
})
