import { Redacted } from "effect"
import { describe, expect, it } from "vitest"
import { pgGoalDatabaseProblem } from "../src/index.js"

describe("pgGoalDatabaseProblem", () => {
  it("accepts a postgres URL and a lower-case schema, the URL redacted or not", () => {
    expect(pgGoalDatabaseProblem({ databaseUrl: "postgres://u@127.0.0.1:5432/db", schema: "team_goals" })).toBeUndefined()
    expect(pgGoalDatabaseProblem({ databaseUrl: Redacted.make("postgresql://u:secret@db/goals") })).toBeUndefined()
  })

  it("names the option at fault and the reason, never the password", () => {
    expect(pgGoalDatabaseProblem({ databaseUrl: "mysql://u:hunter2@db/x" })).toEqual({
      option: "databaseUrl",
      reason: "the database URL is not a postgres:// URL"
    })
    expect(pgGoalDatabaseProblem({ databaseUrl: "not a url" })?.option).toBe("databaseUrl")
    expect(pgGoalDatabaseProblem({ databaseUrl: "postgres://u@db/x", schema: 'x"; DROP SCHEMA public; --' })).toEqual({
      option: "schema",
      reason: 'schema "x\\"; DROP SCHEMA public; --" is not a lower-case SQL identifier (a-z, 0-9, _)'
    })
    expect(JSON.stringify(pgGoalDatabaseProblem({ databaseUrl: "mysql://u:hunter2@db/x" }))).not.toContain("hunter2")
  })
})
