import { GOAL_OPERATION_NAMES, GOAL_OPERATIONS, isMutationName, openGoalStore } from "@armory/goal-store"
import { commandOf, LEDGER_EVENT_BY_KIND, mutationOf } from "@armory/goal-store/backend"
import { describe, expect, it } from "vitest"
import { everyKindOfEvent, RELEASE_MANAGER } from "./support/behaviour.js"
import { ledgerOf } from "./support/files.js"
import { tempRoot } from "./support/temp.js"

describe("the operations table", () => {
  it("names every ledger kind as recorded by exactly one mutation", () => {
    const recordedBy = GOAL_OPERATION_NAMES.filter(isMutationName).flatMap((name) => mutationOf(name).records.map((kind) => [kind, name] as const))
    expect(recordedBy.map(([kind]) => kind).toSorted()).toEqual(Object.keys(LEDGER_EVENT_BY_KIND).toSorted())
  })

  it("records each event under the operation the replay runs for it", async () => {
    const root = tempRoot()
    await everyKindOfEvent(await openGoalStore({ root, ...RELEASE_MANAGER }))
    const misfiled = ledgerOf(root).events.flatMap((event) => {
      const { operation } = commandOf(event)
      return mutationOf(operation).records.includes(event.kind) ? [] : [[event.kind, operation]]
    })
    expect(misfiled).toEqual([])
    expect(Object.keys(GOAL_OPERATIONS)).toEqual(GOAL_OPERATION_NAMES)
  })
})
