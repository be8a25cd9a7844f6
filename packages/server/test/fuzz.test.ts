import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { openGoalStore } from "@armory/goal-store"
import { decodeLedgerLine, deriveStatus, fold, LEDGER_FILE, LEDGER_QUARANTINE_FILE, statusOf } from "@armory/goal-store/backend"
import { Result } from "effect"
import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { arbitraryOf, type JsonSchema } from "./support/jsonSchemaArbitrary.js"
import { openApiText } from "@armory/api"
import { rawRequest } from "./support/rawRequest.js"
import { type RunningServer, startServer, TOKEN } from "./support/server.js"

const document = JSON.parse(openApiText()) as {
  readonly paths: Record<
    string,
    Record<
      string,
      {
        readonly operationId: string
        readonly parameters: ReadonlyArray<{ readonly name: string; readonly in: string; readonly schema: JsonSchema }>
        readonly requestBody?: { readonly content: { readonly "application/json": { readonly schema: JsonSchema } } }
      }
    >
  >
  readonly components: { readonly schemas: Record<string, JsonSchema> }
}

const RUNS = 1000

let server: RunningServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())

/** Anything a client could put in a body: valid bodies, wrong shapes, non-JSON text and bytes. */
const garbage = fc.oneof(
  fc.jsonValue().map((value) => JSON.stringify(value)),
  fc.string({ maxLength: 200 }),
  fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes).toString("latin1")),
  fc.constantFrom("", "{", "null", "[]", '{"prompt":', '{"code":1}', "\u0000", '{"__proto__":{"x":1}}')
)

const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({ path, method: method.toUpperCase(), operation }))
)

const expectHandled = (status: number, body: string) => {
  expect(status).toBeGreaterThanOrEqual(200)
  expect(status).toBeLessThan(500)
  if (status >= 400) expect(Object.keys(JSON.parse(body) as object).length).toBeGreaterThan(0)
  if (status === 400) expect(JSON.parse(body)).toMatchObject({ status: 400, errors: expect.any(Array) })
}

describe.each(operations)("$method $path under 1,000 fuzzed requests", ({ path, method, operation }) => {
  it("answers each with a success or a 4xx with a reason, and stays healthy", async () => {
    const json = operation.requestBody?.content["application/json"].schema
    const body =
      json === undefined
        ? fc.constant(undefined)
        : fc.oneof(arbitraryOf(json, document.components.schemas).map((value) => JSON.stringify(value)), garbage)
    const queryParameters = operation.parameters.filter((parameter) => parameter.in === "query")
    const query = fc.array(
      fc.tuple(
        fc.oneof(fc.constantFrom(...queryParameters.map((parameter) => parameter.name), "x"), fc.string({ maxLength: 8 })),
        fc.oneof(
          ...queryParameters.map((parameter) => arbitraryOf(parameter.schema, document.components.schemas).map(String)),
          fc.string({ maxLength: 16 })
        )
      ),
      { maxLength: 3 }
    )
    await fc.assert(
      fc.asyncProperty(body, query, async (payload, pairs) => {
        const search = new URLSearchParams(pairs).toString()
        const response = await rawRequest(`${server.url}${path}${search === "" ? "" : `?${search}`}`, {
          method,
          headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
          ...(payload === undefined ? {} : { body: payload })
        })
        expectHandled(response.status, response.body)
      }),
      { numRuns: RUNS }
    )
    expect((await rawRequest(`${server.url}/health`)).status).toBe(200)
  }, 300_000)
})

/** Every session the fuzzing wrote: the root aggregate and each directory under `sessions/`. */
const sessionsUnder = (root: string): ReadonlyArray<{ readonly sessionId: string | undefined; readonly directory: string }> => [
  { sessionId: undefined, directory: root },
  ...(existsSync(join(root, "sessions")) ? readdirSync(join(root, "sessions")) : []).map((sessionId) => ({
    sessionId,
    directory: join(root, "sessions", sessionId)
  }))
]

describe("goal state after the fuzzing", () => {
  it("is uncorrupted: every ledger decodes with contiguous seq, nothing was torn, and the store reads what the ledger folds to", async () => {
    let events = 0
    for (const { sessionId, directory } of sessionsUnder(server.goalsRoot)) {
      if (!existsSync(join(directory, LEDGER_FILE))) continue
      expect(existsSync(join(directory, LEDGER_QUARANTINE_FILE))).toBe(false)
      const lines = readFileSync(join(directory, LEDGER_FILE), "utf8").split("\n")
      expect(lines.pop()).toBe("")
      const decoded = lines.map((line) => decodeLedgerLine(line))
      expect(decoded.filter(Result.isFailure)).toEqual([])
      const ledger = decoded.filter(Result.isSuccess).map((result) => result.success)
      expect(ledger.map((event) => event.seq)).toEqual(ledger.map((_, index) => index + 1))
      const folded = fold(ledger)
      if (Result.isFailure(folded)) throw new Error(`the ledger of ${directory} does not fold: ${folded.failure.reason}`)
      const store = await openGoalStore({ root: server.goalsRoot, sessionId })
      expect(await store.status()).toEqual(statusOf(deriveStatus(folded.success)))
      events += ledger.length
    }
    // The fuzzed bodies include valid ones, so goals were really written, not just refused.
    expect(events).toBeGreaterThan(0)
  })
})
