import { Api, type Armed, type BrowserProviderName, type BrowserUnavailable, type ExecuteResult, Goals, LoadReport, type ProbeResult, type ToolCallRecord } from "@armory/api"
import type * as BrowserRuntime from "@armory/browser-runtime"
import type * as CapabilityProbe from "@armory/capability-probe"
import type * as Codemode from "@armory/codemode"
import * as GoalStore from "@armory/goal-store"
import type * as SkillArming from "@armory/skill-arming"
import * as SkillLoader from "@armory/skill-loader"
import { Schema } from "effect"
import { HttpApi } from "effect/http-api"
import { describe, expect, it } from "vitest"
import type { Assert, Equals } from "./TypeEquality.js"

// The contract declares its own Schemas of what the packages answer (the goal store's it takes from
// the store itself); these fail to compile when a package's type drifts from the contract's.
export type Pins = [
  Assert<Equals<typeof Armed.Type, SkillArming.Armed>>,
  Assert<Equals<typeof LoadReport.Type, SkillLoader.LoadReport>>,
  Assert<Equals<typeof ToolCallRecord.Type, Codemode.ToolCallRecord>>,
  Assert<Equals<typeof ExecuteResult.Type, Codemode.ExecuteResult>>,
  Assert<Equals<typeof ProbeResult.Type, CapabilityProbe.ProbeResult<CapabilityProbe.BrowserDriverBlocker>>>,
  Assert<Equals<typeof BrowserProviderName.Type, BrowserRuntime.ConcreteProvider>>,
  Assert<Equals<Omit<typeof BrowserUnavailable.Type, "_tag">, Omit<Schema.Struct.Type<typeof BrowserRuntime.BrowserUnavailableError.fields>, "_tag">>>
]

type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [key: string]: Json }

/** A JSON Schema with every `$ref` replaced by its definition, `$defs` and `$schema` dropped: what it accepts, whatever the names. */
const inlined = (schema: Schema.Top): Json => {
  const document = Schema.toJsonSchemaDocument(schema) as unknown as { readonly schema: Json; readonly definitions?: Record<string, Json> }
  const definitions = document.definitions ?? {}
  const visit = (value: Json): Json => {
    if (Array.isArray(value)) return value.map(visit)
    if (value === null || typeof value !== "object") return value
    const object = value as { readonly [key: string]: Json }
    const ref = object["$ref"]
    if (typeof ref === "string") return visit(definitions[ref.split("/").at(-1) ?? ""] ?? null)
    return Object.fromEntries(Object.entries(object).filter(([key]) => key !== "$defs" && key !== "$schema").map(([key, inner]) => [key, visit(inner)]))
  }
  return visit(document.schema)
}

const byName = (rows: ReadonlyArray<readonly [string, ...ReadonlyArray<unknown>]>) => rows.toSorted(([a], [b]) => a.localeCompare(b))

describe("the contract's mirrors of package Schemas", () => {
  it("serves every goal-store operation with the store's own Schemas: a mutation as POST with its input, a read as GET", () => {
    const served: Array<readonly [string, string, boolean, boolean]> = []
    HttpApi.reflect(Api, {
      onGroup: () => undefined,
      onEndpoint: ({ group, endpoint }) => {
        if (group.identifier !== "goals") return
        const name = endpoint.identifier as GoalStore.GoalOperationName
        const operation = GoalStore.GOAL_OPERATIONS[name]
        const route: Goals.GoalRoute = Goals.GOAL_ROUTES[name]
        const answer = JSON.stringify(inlined(route.success ?? operation.output))
        const answers = [...endpoint.success].some((success) => JSON.stringify(inlined(success)) === answer)
        const takes =
          operation.kind === "mutation" ? JSON.stringify(inlined(route.payload ?? Schema.Never)) === JSON.stringify(inlined(operation.input)) : route.payload === undefined
        served.push([name, endpoint.method, takes, answers])
      }
    })
    expect(byName(served)).toEqual(byName(GoalStore.GOAL_OPERATION_NAMES.map((name) => [name, GoalStore.isMutationName(name) ? "POST" : "GET", true, true])))
  })

  it("documents a load report the loader produces", async () => {
    const report = await SkillLoader.loadSkills([`${import.meta.dirname}/../../../examples/skills`])
    expect(Schema.decodeUnknownSync(LoadReport)(report)).toEqual(report)
  })
})
