import { describeRequiring } from "@armory/config/test-components"
import { afterAll, afterEach } from "vitest"
import { describeGoalStoreRules } from "../../goal-store/test/support/behaviour.js"
import { pgHarness } from "./support/pgHarness.js"

const pg = pgHarness("rules")
afterEach(pg.closeSpaces)
afterAll(pg.dropSpaces)

describeRequiring("pg", "the goal store over PostgreSQL", () => {
  describeGoalStoreRules("pg store", pg.harness)
})
