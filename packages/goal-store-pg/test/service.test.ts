import { describeRequiring } from "@armory/config/test-components"
import { afterAll, afterEach } from "vitest"
import { describeGoalStoreService } from "../../goal-store/test/support/behaviour.js"
import { pgHarness } from "./support/pgHarness.js"

const pg = pgHarness("service")
afterEach(pg.closeSpaces)
afterAll(pg.dropSpaces)

describeRequiring("pg", "the goal store over PostgreSQL", () => {
  describeGoalStoreService("pg store", pg.harness)
})
