import { randomBytes } from "node:crypto"
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { openGoalStore } from "@armory/goal-store"
import { describeRequiring } from "@armory/config/test-components"
import { afterAll, expect, it } from "vitest"
import { closeAdmin, dropSchema, query, TEST_DATABASE_URL, uniqueSchema } from "../../../packages/goal-store-pg/test/support/database.js"
import { armory, startServe } from "./support/armory.js"

const tempRoot = () => mkdtempSync(join(tmpdir(), "armory-cli-stores-"))
const schemas: Array<string> = []
const freshSchema = () => {
  const schema = uniqueSchema("cli")
  schemas.push(schema)
  return schema
}
afterAll(async () => {
  for (const schema of schemas) await dropSchema(schema)
  await closeAdmin()
})

/** `armory goal …` against a fresh schema of the test database, the URL coming from the environment. */
const pgGoal = (schema: string, ...args: ReadonlyArray<string>) =>
  armory(["goal", "--store", "pg", "--database-schema", schema, ...args], { env: { ARMORY_GOALS_DATABASE_URL: TEST_DATABASE_URL } })

describeRequiring("pg", "armory goal --store pg", () => {
  it("drives a goal in PostgreSQL, the URL from ARMORY_GOALS_DATABASE_URL", async () => {
    const schema = freshSchema()
    const set = await pgGoal(schema, "set", "--objective", "Ship login", "--criterion", "a user logs in|browser|e2e/login.spec.ts")
    expect(set).toMatchObject({ code: 0, stdout: "goal g1 [active]: Ship login\n  c1 [pending, attempt 1] a user logs in (browser: e2e/login.spec.ts)\n" })
    const refused = await pgGoal(schema, "--json", "complete")
    expect(refused.code).toBe(1)
    expect(JSON.parse(refused.stdout)).toMatchObject({ error: { _tag: "GateRefused", unmet: [{ criterionId: "c1" }] } })
    expect((await pgGoal(schema, "evidence", "c1", "--kind", "green", "--ref", "ci/1")).code).toBe(0)
    expect((await pgGoal(schema, "--session-id", "billing", "set", "--objective", "Rewrite billing")).code).toBe(0)
    expect((await pgGoal(schema, "sessions")).stdout).toBe("billing\n")
    expect((await pgGoal(schema, "status")).stdout).toMatch(/^c1\s+pending\s+1\s+green\s+a user logs in/m)
    const rows = await query<{ readonly kind: string }>(`SELECT kind FROM "${schema}".goal_events WHERE session_id = '' ORDER BY seq`)
    expect(rows.map((row) => row.kind)).toEqual(["goal_created", "evidence_added"])
    const repair = await pgGoal(schema, "repair")
    expect(repair.code).toBe(2)
    expect(repair.stderr).toContain("repair mends the files of the file store")
  })

  it("exits 2 when --store pg has no database URL", async () => {
    const run = await armory(["goal", "--store", "pg", "status"], { env: { ARMORY_GOALS_DATABASE_URL: "" } })
    expect(run.code).toBe(2)
    expect(run.stderr).toContain("--store pg needs --database-url or ARMORY_GOALS_DATABASE_URL")
  })

  it("exits 1 with a typed StorageFailure when the database cannot be reached, never printing the password", async () => {
    const run = await armory(["goal", "--store", "pg", "--database-url", "postgres://postgres:hunter2@127.0.0.1:1/test", "--json", "status"])
    expect(run.code).toBe(1)
    expect(JSON.parse(run.stdout)).toMatchObject({ error: { _tag: "StorageFailure", operation: "connect", committed: false } })
    expect(run.stdout + run.stderr).not.toContain("hunter2")
  })

  it("warns on stderr when --database-url carries a password, and not when the URL comes from the environment", async () => {
    const schema = freshSchema()
    const withPassword = new URL(TEST_DATABASE_URL)
    withPassword.password = "hunter2"
    const run = await armory(["goal", "--store", "pg", "--database-url", withPassword.href, "--database-schema", schema, "status"])
    expect(run.code).toBe(0)
    expect(run.stderr).toBe(
      "warning: --database-url carries a password that other users can read in the process list; set ARMORY_GOALS_DATABASE_URL instead\n"
    )
    const quiet = await armory(["goal", "--store", "pg", "--database-schema", schema, "status"], {
      env: { ARMORY_GOALS_DATABASE_URL: withPassword.href }
    })
    expect(quiet).toMatchObject({ code: 0, stderr: "" })
    expect((await armory(["goal", "--store", "pg", "--database-url", TEST_DATABASE_URL, "--database-schema", schema, "status"])).stderr).toBe("")
  })

  it("exits 2 when the flags of one store are given to the other", async () => {
    const pgWithRoot = await armory(["goal", "--store", "pg", "--root", tempRoot(), "status"], { env: { ARMORY_GOALS_DATABASE_URL: TEST_DATABASE_URL } })
    expect(pgWithRoot.code).toBe(2)
    expect(pgWithRoot.stderr).toContain("--store pg keeps goals in the database; the goals directory flag is for --store file")
    const fileWithUrl = await armory(["goal", "--root", tempRoot(), "--database-url", TEST_DATABASE_URL, "status"])
    expect(fileWithUrl.code).toBe(2)
    expect(fileWithUrl.stderr).toContain("--database-url needs --store pg")
  })
})

describeRequiring("pg", "armory goal export / import", () => {
  it("imports into PostgreSQL all or nothing: an event jsonb cannot hold writes no row, the fixed ledger imports after", async () => {
    const root = tempRoot()
    // Process arguments cannot carry NUL, so the file store is written in process.
    const local = await openGoalStore({ root })
    await local.set({ objective: "Half a session" })
    await local.checkpoint({ summary: "one" })
    await local.checkpoint({ summary: "bad \u0000" })
    const ledger = readFileSync(join(root, "ledger.jsonl"), "utf8")
    expect(ledger).toContain("bad \\u0000")
    const file = join(tempRoot(), "ledger.jsonl")
    writeFileSync(file, ledger)
    const schema = freshSchema()
    const refused = await pgGoal(schema, "--session-id", "atomic", "import", file)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain("ledger line 3 (seq 3): PostgreSQL jsonb cannot store the NUL character (U+0000)")
    expect(await query(`SELECT seq FROM "${schema}".goal_events`)).toEqual([])
    writeFileSync(file, ledger.replace("bad \\u0000", "bad"))
    expect(await pgGoal(schema, "--session-id", "atomic", "import", file)).toMatchObject({
      code: 0,
      stdout: "imported 3 events into session atomic (seq 3)\n"
    })
    expect((await pgGoal(schema, "--session-id", "atomic", "export")).stdout).toBe(ledger.replace("bad \\u0000", "bad"))
  })

  it("moves a ledger from files to PostgreSQL and back, byte for byte", async () => {
    const root = tempRoot()
    const goal = (...args: ReadonlyArray<string>) => armory(["goal", "--root", root, ...args])
    await goal("set", "--objective", "Ship login", "--criterion", "a user logs in|browser|e2e/login.spec.ts")
    await goal("evidence", "c1", "--kind", "green", "--ref", "ci/1")
    await goal("steer", "skip the tests", "--kind", "redirect", "--evidence", "deadline", "--rationale", "ship")
    await goal("evidence", "c1", "--kind", "scenario", "--ref", "qa/login.webm")
    await goal("criterion-status", "c1", "pass")
    await goal("complete")
    expect((await goal("checkpoint", "after release")).code).toBe(1)
    expect((await goal("checkpoint", "after release", "--force")).code).toBe(0)
    const exported = await goal("export")
    expect(exported.code).toBe(0)
    const events = exported.stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as { kind: string; forcedBy?: string })
    expect(events.map((event) => event.kind)).toEqual([
      "goal_created",
      "evidence_added",
      "steering_rejected",
      "evidence_added",
      "criterion_status",
      "goal_completed",
      "checkpoint"
    ])
    expect(events.at(-1)?.forcedBy).toMatch(/^armory goal/)
    expect(exported.stdout).toBe(readFileSync(join(root, "ledger.jsonl"), "utf8"))
    const file = join(tempRoot(), "ledger.jsonl")
    writeFileSync(file, exported.stdout)

    const schema = freshSchema()
    const imported = await pgGoal(schema, "--session-id", "moved", "import", file)
    expect(imported).toMatchObject({ code: 0, stdout: "imported 7 events into session moved (seq 7)\n" })
    const out = join(tempRoot(), "out.jsonl")
    const fromPg = await pgGoal(schema, "--session-id", "moved", "--json", "export", "--output", out)
    expect(JSON.parse(fromPg.stdout)).toEqual({ sessionId: "moved", events: 7, file: out })
    expect(readFileSync(out, "utf8")).toBe(exported.stdout)

    const back = tempRoot()
    expect((await armory(["goal", "--root", back, "import", out])).code).toBe(0)
    expect(readFileSync(join(back, "ledger.jsonl"), "utf8")).toBe(exported.stdout)
  })

  it("refuses a non-empty session and a malformed or tampered ledger, writing nothing", async () => {
    const schema = freshSchema()
    await pgGoal(schema, "set", "--objective", "Already here")
    const root = tempRoot()
    await armory(["goal", "--root", root, "set", "--objective", "Ship login"])
    const ledger = join(root, "ledger.jsonl")
    const occupied = await pgGoal(schema, "import", ledger)
    expect(occupied.code).toBe(1)
    expect(occupied.stderr).toContain("InvalidInput: invalid input: session default already holds goal g1")

    const broken = join(tempRoot(), "broken.jsonl")
    writeFileSync(broken, `${readFileSync(ledger, "utf8")}{"schema":"armory.goal.ledger/v1","seq":2,"kind":"checkpoint"\n`)
    const malformed = await pgGoal(schema, "--session-id", "fresh", "--json", "import", broken)
    expect(malformed.code).toBe(1)
    expect(JSON.parse(malformed.stdout)).toMatchObject({ error: { _tag: "InvalidInput" } })
    expect((JSON.parse(malformed.stdout) as { error: { reason: string } }).error.reason).toMatch(/^ledger line 2: not JSON/)

    const tampered = join(tempRoot(), "tampered.jsonl")
    writeFileSync(tampered, readFileSync(ledger, "utf8").replace('"id":"g1"', '"id":"g9"'))
    const rejected = await pgGoal(schema, "--session-id", "fresh", "import", tampered)
    expect(rejected.code).toBe(1)
    expect(rejected.stderr).toContain("ledger line 1 (seq 1) does not replay: the domain decides a different goal_created event")
    expect((await pgGoal(schema, "--session-id", "fresh", "export")).stdout).toBe("")
  })
})

describeRequiring("pg", "armory serve --store pg", () => {
  it("serves goals from the database on one shared pool, and closes it on SIGTERM", async () => {
    const schema = freshSchema()
    const application = `armory-serve-test-${randomBytes(3).toString("hex")}`
    const token = "serve-pg-test-token"
    const { server, exited, url } = await startServe(
      ["--json", "--store", "pg", "--database-url", `${TEST_DATABASE_URL}?application_name=${application}`, "--database-schema", schema],
      { ARMORY_TOKEN: token }
    )
    const post = (path: string, body: unknown) =>
      fetch(`${url}${path}?sessionId=served`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(body)
      })
    expect((await post("/goals/set", { objective: "Served from PostgreSQL" })).status).toBe(200)
    const writes = await Promise.all(Array.from({ length: 20 }, (_, index) => post("/goals/checkpoint", { summary: `request ${index}` })))
    expect(writes.map((response) => response.status)).toEqual(Array.from({ length: 20 }, () => 200))
    const refused = await post("/goals/complete", {})
    expect(refused.status).toBe(409)
    const code = await fetch(`${url}/codemode/execute`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ code: 'await goals.set({ objective: "From code" }); return (await goals.status({})).goal.objective' })
    })
    expect(await code.json()).toMatchObject({ status: "completed", result: "From code" })
    const rows = await query<{ readonly session_id: string; readonly count: number }>(
      `SELECT session_id, count(*)::int AS count FROM "${schema}".goal_events GROUP BY session_id ORDER BY session_id`
    )
    expect(rows).toEqual([
      { session_id: "", count: 1 },
      { session_id: "served", count: 21 }
    ])
    const connections = async () =>
      (await query<{ readonly count: number }>("SELECT count(*)::int AS count FROM pg_stat_activity WHERE application_name = $1", [application]))[0]?.count
    expect(await connections()).toBeGreaterThan(0)
    expect(await connections()).toBeLessThanOrEqual(10)
    server.kill("SIGTERM")
    const [exitCode] = await exited
    expect(exitCode).toBe(130)
    // The server ends a backend shortly after its client is gone, so pg_stat_activity may lag a little.
    const settledBy = Date.now() + 5000
    while ((await connections()) !== 0 && Date.now() < settledBy) await new Promise((resolve) => setTimeout(resolve, 50))
    expect(await connections()).toBe(0)
  }, 60_000)
})
