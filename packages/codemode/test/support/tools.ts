import { Schema } from "effect"
import type { Tool, ToolTree } from "../../src/index.js"

/** A tool whose input is decoded by `input` and whose `run` is the given function. */
export const tool = <I, O>(input: Schema.Codec<I, unknown>, run: (input: I) => Promise<O>, output?: Schema.Codec<O, unknown>): Tool<I, O> =>
  output === undefined ? { description: "a test tool", input, run } : { description: "a test tool", input, output, run }

/** A host value the guest must never be able to read. */
export const SECRET = "host-secret-7f3a9c"

export class NotFound extends Schema.TaggedError<NotFound>()("NotFound", {
  id: Schema.String,
  attempts: Schema.Number
}) {
  override get message(): string {
    return `no record ${this.id}`
  }
}

/** A small tree: arithmetic, an echo, a host-secret-holding failure and a Schema-backed failure. */
export const testTools = (): ToolTree => ({
  math: {
    add: tool(Schema.Struct({ a: Schema.Number, b: Schema.Number }), async ({ a, b }) => a + b, Schema.Number)
  },
  util: {
    echo: tool(Schema.Unknown, async (value) => value),
    fail: tool(Schema.Void, async () => {
      throw new Error(`database password is ${SECRET} at ${process.cwd()}`)
    }),
    notFound: tool(Schema.Struct({ id: Schema.String }), async ({ id }) => {
      throw new NotFound({ id, attempts: 3 })
    })
  }
})
