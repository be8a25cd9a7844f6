import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import {
  assertValidGlobals,
  BUILTIN_GLOBAL_NAMES,
  execute,
  instructions,
  InvalidGlobalsError,
  seedBuiltinGlobals,
  type ToolTree
} from "../src/index.js"
import { testTools, tool } from "./support/tools.js"

const tree: ToolTree = {
  ...testTools(),
  page: { url: tool(Schema.Void, async () => "about:blank", Schema.String) },
  JSON: { parse: tool(Schema.String, async (text) => text) },
  tools: { inner: tool(Schema.Void, async () => null) },
  ping: tool(Schema.Void, async () => "pong")
}

const refusal = (globals: ReadonlyArray<string>) => {
  try {
    assertValidGlobals(tree, globals)
  } catch (error) {
    if (error instanceof InvalidGlobalsError) return { name: error.name, rule: error.rule, message: error.message }
    throw error
  }
  return undefined
}

describe("assertValidGlobals", () => {
  it("accepts namespaces of the tree", () => {
    expect(refusal(["math", "page", "util"])).toBeUndefined()
  })

  it.each([
    ["not-a-namespace", ["missing"], "missing", "is not a namespace of the tool tree"],
    ["not-a-namespace", ["__proto__"], "__proto__", "is not a namespace of the tool tree"],
    ["not-a-namespace", ["constructor"], "constructor", "is not a namespace of the tool tree"],
    ["tool-not-namespace", ["math", "ping"], "ping", "is a tool, not a namespace"],
    ["not-an-identifier", ["page.url"], "page.url", "is not a JavaScript identifier"],
    ["shadows-builtin", ["JSON"], "JSON", "would shadow a global of the guest realm"],
    ["shadows-builtin", ["tools"], "tools", "would shadow a global of the guest realm"],
    ["duplicate", ["math", "math"], "math", "is listed more than once"],
    ["not-an-identifier", ["1math"], "1math", "is not a JavaScript identifier"],
    ["not-an-identifier", ["my-ns"], "my-ns", "is not a JavaScript identifier"],
    ["not-an-identifier", ["class"], "class", "is not a JavaScript identifier"],
    ["not-an-identifier", [""], "", "is not a JavaScript identifier"]
  ])("refuses (%s) %j naming the name and the rule", (rule, globals, name, text) => {
    const refused = refusal(globals)
    expect(refused).toMatchObject({ name, rule })
    expect(refused?.message).toContain(JSON.stringify(name))
    expect(refused?.message).toContain(text)
    expect(refused?.message).toContain(`rule: ${rule}`)
  })

  it("is applied by execute before anything runs", async () => {
    await expect(execute("return 1", { tools: tree, globals: ["JSON"] })).rejects.toBeInstanceOf(InvalidGlobalsError)
  })
})

describe("BUILTIN_GLOBAL_NAMES", () => {
  it("is what a fresh guest realm holds, enumerated from the realm itself", async () => {
    expect([...BUILTIN_GLOBAL_NAMES].toSorted()).toEqual([...(await seedBuiltinGlobals())])
    const live = await execute("return Object.getOwnPropertyNames(globalThis).toSorted()", { tools: {} })
    expect(live.result).toEqual([...BUILTIN_GLOBAL_NAMES].toSorted())
    for (const name of ["JSON", "Promise", "console", "tools", "globalThis"]) expect(BUILTIN_GLOBAL_NAMES.has(name)).toBe(true)
    for (const name of ["process", "require", "fetch", "setTimeout", "SharedArrayBuffer", "Atomics"]) expect(BUILTIN_GLOBAL_NAMES.has(name)).toBe(false)
  })
})

describe("globals", () => {
  it("binds each name to the same node as tools.<name>: one path, one authorization, one calls entry", async () => {
    const asked: Array<string> = []
    const result = await execute("return [page === tools.page, page.url === tools.page.url, await page.url()]", {
      tools: tree,
      globals: ["page"],
      authorize: ({ path }) => {
        asked.push(path)
        return true
      }
    })
    expect(result.result).toEqual([true, true, "about:blank"])
    expect(asked).toEqual(["page.url"])
    expect(result.calls).toEqual([{ path: "page.url", status: "ok" }])
  })

  it("cannot be reassigned by the guest", async () => {
    const result = await execute("'use strict'; try { page = 1 } catch (e) { return [e.name, typeof page] }", {
      tools: tree,
      globals: ["page"]
    })
    expect(result.result).toEqual(["TypeError", "function"])
  })
})

describe("instructions", () => {
  const globals = ["math", "page"]
  const text = instructions(tree, { globals })

  it("lists exactly the globals a live execution binds", async () => {
    const statement = text.split("\n").find((line) => line.startsWith("The only globals are")) ?? ""
    const previewed = [...statement.split(" and the standard")[0]!.matchAll(/`([^`]+)`/g)].map((match) => match[1])
    const live = await execute("return Object.getOwnPropertyNames(globalThis)", { tools: tree, globals })
    const bound = (live.result as Array<string>).filter((name) => name === "tools" || !BUILTIN_GLOBAL_NAMES.has(name))
    expect(previewed.toSorted()).toEqual(bound.toSorted())
    expect(previewed.toSorted()).toEqual(["math", "page", "tools"])
  })

  it("declares every tool from its Schemas, with its description as a doc comment", () => {
    expect(text).toContain("declare const tools: {")
    expect(text).toContain("    /** a test tool */\n    add(input: {\n      a: number\n      b: number\n    }): Promise<number>")
    expect(text).toContain("    url(): Promise<string>")
    expect(text).toContain("    echo(input: unknown): Promise<unknown>")
    expect(instructions({ ns: { maybe: tool(Schema.UndefinedOr(Schema.String), async () => null) } })).toContain(
      "maybe(input?: string): Promise<unknown>"
    )
    expect(text).toContain("declare const page: typeof tools.page")
    expect(text).not.toContain('"Infinity"')
  })

  it("documents optional fields, literals, arrays and nested definitions", () => {
    const Item = Schema.Struct({ sku: Schema.String.annotate({ description: "stock keeping unit" }) })
    const tools: ToolTree = {
      shop: {
        order: {
          description: "Places an order.\nIrreversible.",
          input: Schema.Struct({ items: Schema.Array(Item), mode: Schema.Literals(["fast", "cheap"]), note: Schema.optional(Schema.String) }),
          output: Schema.Struct({ id: Schema.String }),
          run: async () => ({ id: "o1" })
        }
      }
    }
    const preview = instructions(tools)
    expect(preview).toContain("/**\n     * Places an order.\n     * Irreversible.\n     */")
    expect(preview).toContain('mode: "fast" | "cheap"')
    expect(preview).toContain("note?: string | null")
    expect(preview).toContain("/** stock keeping unit */")
    expect(preview).toContain("items: Array<{")
    expect(preview).toContain("The only globals are `tools` and the standard JavaScript builtins")
  })

  it("gives the real globals with a ReferenceError for an unknown identifier", async () => {
    const result = await execute("return await channel.send({ text: 'hi' })", { tools: tree, globals })
    expect(result.error?._tag).toBe("ReferenceError")
    expect(result.error?.message).toContain("'channel' is not defined")
    expect(result.error?.message).toContain("The only globals are `tools`, `math`, `page` and the standard JavaScript builtins")
  })
})
