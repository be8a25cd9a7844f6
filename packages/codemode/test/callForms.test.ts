import { Schema } from "effect"
import ts from "typescript"
import { describe, expect, it } from "vitest"
import { execute, instructions, type ToolTree } from "../src/index.js"
import { tool } from "./support/tools.js"

/** Answers with the input `run` was given, so a test sees what a call was decoded as (undefined spelled out, JSON has none). */
const echoing = <I>(input: Schema.Codec<I, unknown>) => tool(input, async (value: I) => (value === undefined ? "undefined" : value))

const tools: ToolTree = {
  t: {
    nothing: echoing(Schema.Void),
    maybe: echoing(Schema.UndefinedOr(Schema.Struct({ selector: Schema.optional(Schema.String) }))),
    options: echoing(Schema.Struct({ selector: Schema.optional(Schema.String), limit: Schema.optional(Schema.Number) })),
    empty: echoing(Schema.Struct({})),
    find: echoing(Schema.Struct({ id: Schema.String })),
    findWith: echoing(Schema.Struct({ id: Schema.String, limit: Schema.optional(Schema.Number) })),
    pair: echoing(Schema.Struct({ a: Schema.String, b: Schema.String })),
    options2: echoing(Schema.Struct({ ref: Schema.optional(Schema.String), selector: Schema.optional(Schema.String) })),
    count: echoing(Schema.Struct({ n: Schema.Number })),
    classify: echoing(Schema.Struct({ class: Schema.String }))
  }
}

/** One call in its own execution: what the tool was given, or the refusal the guest caught. */
const call = async (expression: string) => {
  const result = await execute(
    `try { return { input: await tools.t.${expression} } } catch (e) { return { refused: e._tag, message: e.message } }`,
    { tools }
  )
  return { outcome: result.result, calls: result.calls }
}

/** The `calls` of an execution that made the one call `expression`, ending as `status`. */
const listedOnce = (expression: string, status: "ok" | "error") => [{ path: `t.${expression.slice(0, expression.indexOf("("))}`, status }]

const preview = instructions(tools)
const declarations = /```ts\n([\s\S]*?)```/.exec(preview)?.[1] ?? ""

/**
 * Which of `expressions` type-check against the previewed declarations, as a model's code would be
 * read against them: one program, each call on a line of its own, so a diagnostic names its call.
 */
const previewAccepts = (expressions: ReadonlyArray<string>): ReadonlyArray<boolean> => {
  const options: ts.CompilerOptions = { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, lib: ["lib.es2022.d.ts"], types: [] }
  const file = "/guest.ts"
  const prefix = `${declarations}\nexport {}\n`
  const source = prefix + expressions.map((expression) => `void (async () => { await tools.t.${expression} })\n`).join("")
  const host = ts.createCompilerHost(options)
  const readFile = host.readFile.bind(host)
  const getSourceFile = host.getSourceFile.bind(host)
  host.fileExists = (name) => name === file || ts.sys.fileExists(name)
  host.readFile = (name) => (name === file ? source : readFile(name))
  host.getSourceFile = (name, language) => (name === file ? ts.createSourceFile(name, source, language) : getSourceFile(name, language))
  const diagnostics = ts.getPreEmitDiagnostics(ts.createProgram([file], options, host))
  const firstLine = prefix.split("\n").length - 1
  const refused = new Set<number>()
  for (const diagnostic of diagnostics) {
    const line = diagnostic.file === undefined || diagnostic.start === undefined ? -1 : diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line - firstLine
    // A fault in the declarations themselves would make every verdict meaningless.
    if (line < 0 || line >= expressions.length) throw new Error(`the declarations do not compile: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`)
    refused.add(line)
  }
  return expressions.map((_, index) => !refused.has(index))
}

describe("a call with no argument", () => {
  it.each([
    ["Schema.Void", "nothing()", "undefined"],
    ["Schema.UndefinedOr(Struct)", "maybe()", "undefined"],
    ["a Struct whose fields are all optional", "options()", {}],
    ["Schema.Struct({})", "empty()", {}]
  ])("is the empty input on %s", async (_, expression, input) => {
    const { outcome, calls } = await call(expression)
    expect(outcome).toEqual({ input })
    expect(calls).toEqual(listedOnce(expression, "ok"))
  })

  it("is refused with ToolInputError on a Struct with a required field, naming the object it takes", async () => {
    const { outcome, calls } = await call("find()")
    expect(outcome).toEqual({ refused: "ToolInputError", message: "tools.t.find: invalid input: expected an object { id }, got no argument" })
    expect(calls).toEqual(listedOnce("find()", "error"))
  })
})

describe("a call with a lone string", () => {
  it.each([
    ["the one required field, a string", "find('u1')", { id: "u1" }],
    ["the one required string field beside optional ones", "findWith('u1')", { id: "u1" }],
    ["the only string field when none is required", "options('h1')", { selector: "h1" }],
    ["the only string field of an input that may be undefined", "maybe('h1')", { selector: "h1" }]
  ])("fills %s", async (_, expression, input) => {
    const { outcome, calls } = await call(expression)
    expect(outcome).toEqual({ input })
    expect(calls).toEqual(listedOnce(expression, "ok"))
  })

  it.each([
    ["two required string fields", "pair('x')", 'tools.t.pair: invalid input: expected an object { a, b }, got a string ("x")'],
    ["a single field that is not a string", "count('3')", 'tools.t.count: invalid input: expected an object { n }, got a string ("3")'],
    ["optional string fields of which none is the one", "options2('css')", 'tools.t.options2: invalid input: expected an object { ref?, selector? }, got a string ("css")']
  ])("is refused with ToolInputError for %s, naming the object the tool takes", async (_, expression, message) => {
    const { outcome, calls } = await call(expression)
    expect(outcome).toEqual({ refused: "ToolInputError", message })
    expect(calls).toEqual(listedOnce(expression, "error"))
  })

  it("leaves any other value as strict as before: a number for a Struct names what was wrong", async () => {
    const { outcome, calls } = await call("find(3)")
    expect(outcome).toEqual({ refused: "ToolInputError", message: "tools.t.find: invalid input: expected an object { id }, got a number" })
    expect(calls).toEqual(listedOnce("find(3)", "error"))
  })

  it("is authorized, run and listed once, as the input it stands for", async () => {
    const asked: Array<{ path: string; input: unknown }> = []
    const result = await execute("return [await tools.t.find('u1'), await tools.t.options()]", {
      tools,
      authorize: (request) => {
        asked.push(request)
        return true
      }
    })
    expect(result.result).toEqual([{ id: "u1" }, {}])
    expect(asked).toEqual([
      { path: "t.find", input: { id: "u1" } },
      { path: "t.options", input: {} }
    ])
    expect(result.calls).toEqual([
      { path: "t.find", status: "ok" },
      { path: "t.options", status: "ok" }
    ])
  })
})

describe("the declarations", () => {
  it("show the parameter optional where no argument is allowed and a string overload where a string is", () => {
    expect(declarations).toContain("    nothing(): Promise<unknown>")
    expect(declarations).toContain("    maybe(input?: {\n      selector?: string | null\n    }): Promise<unknown>\n    maybe(selector: string): Promise<unknown>")
    expect(declarations).toContain(
      "    options(input?: {\n      selector?: string | null\n      limit?: number | null\n    }): Promise<unknown>\n    options(selector: string): Promise<unknown>"
    )
    expect(declarations).toContain("    empty(input?: {}): Promise<unknown>\n")
    expect(declarations).toContain("    find(input: {\n      id: string\n    }): Promise<unknown>\n    find(id: string): Promise<unknown>")
    expect(declarations).toContain("    pair(input: {\n      a: string\n      b: string\n    }): Promise<unknown>\n")
    expect(declarations).toContain("    count(input: {\n      n: number\n    }): Promise<unknown>\n")
    expect(declarations).not.toMatch(/pair\([ab]: string\)|count\(n: string\)/)
    // A field name that cannot name a parameter still gets the string form, under a neutral name.
    expect(declarations).toContain("    classify(value: string): Promise<unknown>")
    expect(preview).toContain("or with none where the input is optional (`input?`)")
  })

  it("type-check exactly the calls the live tree accepts", async () => {
    const cases: ReadonlyArray<readonly [string, boolean]> = [
      ["nothing()", true],
      ["maybe()", true],
      ["maybe('h1')", true],
      ["options()", true],
      ["options('h1')", true],
      ["empty()", true],
      ["find('u1')", true],
      ["findWith('u1')", true],
      ["classify('x')", true],
      ["find()", false],
      ["pair('x')", false],
      ["pair()", false],
      ["count('3')", false],
      ["find(3)", false]
    ]
    const live = await Promise.all(cases.map(async ([expression]) => "input" in Object((await call(expression)).outcome)))
    expect(live).toEqual(cases.map(([, accepted]) => accepted))
    expect(previewAccepts(cases.map(([expression]) => expression))).toEqual(live)
  })
})
