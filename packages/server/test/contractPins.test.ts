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

// The contract declares its own Schemas of what the packages answer; these fail to compile when a
// package's type drifts from the contract's.
export type Pins = [
  Assert<Equals<typeof Armed.Type, SkillArming.Armed>>,
  Assert<Equals<typeof LoadReport.Type, SkillLoader.LoadReport>>,
  Assert<Equals<typeof ToolCallRecord.Type, Codemode.ToolCallRecord>>,
  Assert<Equals<typeof ExecuteResult.Type, Codemode.ExecuteResult>>,
  Assert<Equals<typeof ProbeResult.Type, CapabilityProbe.ProbeResult<CapabilityProbe.BrowserDriverBlocker>>>,
  Assert<Equals<typeof BrowserProviderName.Type, BrowserRuntime.ConcreteProvider>>,
  Assert<Equals<Omit<typeof BrowserUnavailable.Type, "_tag">, Omit<Schema.Struct.Type<typeof BrowserRuntime.BrowserUnavailableError.fields>, "_tag">>>,
  Assert<Equals<typeof Goals.Goal.Type, GoalStore.Goal>>,
  Assert<Equals<typeof Goals.GoalStatusReport.Type, GoalStore.GoalStatusReport>>,
  Assert<Equals<typeof Goals.SetInput.Type, GoalStore.SetInput>>,
  Assert<Equals<typeof Goals.AddCriterionInput.Type, GoalStore.AddCriterionInput>>,
  Assert<Equals<typeof Goals.AddEvidenceInput.Type, GoalStore.AddEvidenceInput>>,
  Assert<Equals<typeof Goals.SetCriterionStatusInput.Type, GoalStore.SetCriterionStatusInput>>,
  Assert<Equals<typeof Goals.SteerInput.Type, GoalStore.SteerInput>>,
  Assert<Equals<typeof Goals.CheckpointInput.Type, GoalStore.CheckpointInput>>,
  Assert<Equals<typeof Goals.AddBlockerInput.Type, GoalStore.AddBlockerInput>>,
  Assert<Equals<typeof Goals.ResolveBlockerInput.Type, GoalStore.ResolveBlockerInput>>,
  Assert<Equals<typeof Goals.SetGoalStatusInput.Type, GoalStore.SetGoalStatusInput>>,
  Assert<Equals<typeof Goals.CompleteInput.Type, GoalStore.CompleteInput>>,
  Assert<Equals<keyof typeof Goals.GoalsErrorsByTag, GoalStore.GoalStoreError["_tag"]>>
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

describe("the contract's mirrors of package Schemas", () => {
  const pairs: ReadonlyArray<readonly [string, Schema.Top, Schema.Top]> = [
    ["SetInput", Goals.SetInput, GoalStore.SetInput],
    ["AddCriterionInput", Goals.AddCriterionInput, GoalStore.AddCriterionInput],
    ["AddEvidenceInput", Goals.AddEvidenceInput, GoalStore.AddEvidenceInput],
    ["SetCriterionStatusInput", Goals.SetCriterionStatusInput, GoalStore.SetCriterionStatusInput],
    ["SteerInput", Goals.SteerInput, GoalStore.SteerInput],
    ["CheckpointInput", Goals.CheckpointInput, GoalStore.CheckpointInput],
    ["AddBlockerInput", Goals.AddBlockerInput, GoalStore.AddBlockerInput],
    ["ResolveBlockerInput", Goals.ResolveBlockerInput, GoalStore.ResolveBlockerInput],
    ["SetGoalStatusInput", Goals.SetGoalStatusInput, GoalStore.SetGoalStatusInput],
    ["CompleteInput", Goals.CompleteInput, GoalStore.CompleteInput],
    ["Goal", Goals.Goal, GoalStore.Goal],
    ["GoalStatusReport", Goals.GoalStatusReport, GoalStore.GoalStatusReport],
    ["SafeId", Goals.SafeId, GoalStore.SafeId]
  ]
  it.each(pairs)("%s accepts exactly what the goal store's Schema accepts", (_name, contract, pkg) => {
    expect(inlined(contract)).toEqual(inlined(pkg))
  })

  it("has one goals route per goal-store operation, named after it", () => {
    const names: Array<string> = []
    HttpApi.reflect(Api, {
      onGroup: () => undefined,
      onEndpoint: ({ group, endpoint }) => {
        if (group.identifier === "goals") names.push(endpoint.identifier)
      }
    })
    expect(names.toSorted()).toEqual([...GoalStore.GOAL_OPERATION_NAMES].toSorted())
  })

  it("documents a load report the loader produces", async () => {
    const report = await SkillLoader.loadSkills([`${import.meta.dirname}/../../../examples/skills`])
    expect(Schema.decodeUnknownSync(LoadReport)(report)).toEqual(report)
  })
})
