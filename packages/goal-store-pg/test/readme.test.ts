import { describeReadmeExamples } from "@armory/config/readme-examples"
import { describeRequiring } from "@armory/config/test-components"
import { afterAll } from "vitest"
import { closeAdmin, dropSchema, TEST_DATABASE_URL, uniqueSchema } from "./support/database.js"

// The examples read the same variables as the CLI: point them at a schema of the test database that
// only this run uses, and drop it afterwards.
const schema = uniqueSchema("readme")
afterAll(async () => {
  await dropSchema(schema)
  await closeAdmin()
})

describeRequiring("pg", "the README against PostgreSQL", () => {
  describeReadmeExamples(`${import.meta.dirname}/..`, {
    env: { ARMORY_GOALS_DATABASE_URL: TEST_DATABASE_URL, ARMORY_GOALS_DATABASE_SCHEMA: schema }
  })
})
