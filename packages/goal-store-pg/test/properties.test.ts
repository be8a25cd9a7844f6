import { describeRequiring } from "@armory/config/test-components"
import { afterAll, afterEach } from "vitest"
import { describeGoalStoreProperties } from "../../goal-store/test/support/behaviour.js"
import { pgHarness } from "./support/pgHarness.js"

const pg = pgHarness("properties")
afterEach(pg.closeSpaces)
afterAll(pg.dropSpaces)

describeRequiring("pg", "the goal store over PostgreSQL", () => {
  describeGoalStoreProperties("pg store", pg.harness)
})
