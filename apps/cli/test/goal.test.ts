import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { armory } from "./support/armory.js"

const tempRoot = () => mkdtempSync(join(tmpdir(), "armory-cli-goal-"))
const goal = (root: string, ...args: ReadonlyArray<string>) => armory(["goal", "--root", root, ...args])

describe("armory goal", () => {
  it("drives a goal from objective to an evidence-gated completion", async () => {
    const root = tempRoot()
    const set = await goal(root, "set", "--objective", "Ship login", "--criterion", "a user logs in|browser|e2e/login.spec.ts")
    expect(set).toMatchObject({ code: 0 })
    expect(set.stdout).toBe("goal g1 [active]: Ship login\n  c1 [pending, attempt 1] a user logs in (browser: e2e/login.spec.ts)\n")
    const refused = await goal(root, "complete")
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain("GateRefused: completion refused: 1 unmet (c1 owes pass, green, scenario)")
    expect((await goal(root, "evidence", "c1", "--kind", "green", "--ref", "ci/1")).stdout).toBe("evidence e1 (green) on c1 attempt 1: ci/1\n")
    expect((await goal(root, "evidence", "c1", "--kind", "scenario", "--ref", "rec.webm")).code).toBe(0)
    expect((await goal(root, "criterion-status", "c1", "pass")).code).toBe(0)
    const status = await goal(root, "status")
    expect(status.stdout).toMatch(/^c1\s+pass\s+1\s+green,scenario\s+a user logs in/m)
    expect(status.stdout).toContain("gate: passed")
    const complete = await goal(root, "complete")
    expect(complete).toMatchObject({ code: 0, stdout: "goal g1 complete\n" })
    const late = await goal(root, "criterion", "--scenario", "late", "--qa-channel", "cli", "--test-ref", "t")
    expect(late.code).toBe(1)
    expect(late.stderr).toContain("GoalAlreadyComplete")
  })

  it("lists what the gate waits for and every blocker, and leaves goals.json current when it ends", async () => {
    const root = tempRoot()
    await goal(root, "set", "--objective", "Ship login", "--criterion", "a user logs in|browser|e2e/login.spec.ts")
    await goal(root, "evidence", "c1", "--kind", "green", "--ref", "ci/1")
    await goal(root, "blocker", "design review")
    await goal(root, "resolve-blocker", "b1")
    await goal(root, "blocker", "security review")
    const status = await goal(root, "status")
    expect(status.stdout).toContain(
      [
        "blocker b1 resolved: design review",
        "blocker b2 open: security review",
        "gate: closed; completion waits for:",
        "  - the goal is review_blocked; a stalled goal cannot complete",
        "  - c1 owes status pass, scenario evidence (pending, attempt 1)",
        "  - blocker b2 is open: security review"
      ].join("\n")
    )
    const ledger = readFileSync(join(root, "ledger.jsonl"))
    const snapshot = JSON.parse(readFileSync(join(root, "goals.json"), "utf8")) as { seq: number; ledgerBytes: number }
    expect(snapshot).toMatchObject({ seq: 5, ledgerBytes: ledger.length })
  })

  it("records the operator at the terminal when --force changes a complete goal, and never opens the gate with it", async () => {
    const root = tempRoot()
    await goal(root, "set", "--objective", "Ship login", "--criterion", "a user logs in|browser|e2e/login.spec.ts")
    const forced = await goal(root, "complete", "--force")
    expect(forced.code).toBe(1)
    expect(forced.stderr).toContain("GateRefused")
    for (const kind of ["green", "scenario"]) await goal(root, "evidence", "c1", "--kind", kind, "--ref", `${kind}/1`)
    await goal(root, "criterion-status", "c1", "pass")
    expect((await goal(root, "complete")).code).toBe(0)
    expect((await goal(root, "checkpoint", "post-release")).stderr).toContain("start new work in a new session (--session-id <id>")
    expect((await goal(root, "checkpoint", "post-release", "--force")).code).toBe(0)
    const last = JSON.parse(readFileSync(join(root, "ledger.jsonl"), "utf8").trimEnd().split("\n").at(-1) ?? "{}") as Record<string, unknown>
    expect(last).toMatchObject({ kind: "checkpoint", forced: true, forcedBy: expect.stringMatching(/^armory goal \(user .+\)$/) })
  })

  it("prints the typed refusal as JSON on stdout with --json and exits 1", async () => {
    const root = tempRoot()
    await goal(root, "set", "--objective", "Ship login", "--criterion", "a user logs in|browser|e2e/login.spec.ts")
    await goal(root, "blocker", "security review")
    const run = await armory(["goal", "--root", root, "--json", "complete"])
    expect(run.code).toBe(1)
    const { error } = JSON.parse(run.stdout) as { error: { _tag: string; message: string; unmet: ReadonlyArray<{ kind: string }> } }
    expect(error._tag).toBe("GateRefused")
    expect(error.message).toMatch(/^completion refused: 3 unmet \(the goal is review_blocked/)
    expect(error.unmet.map((unmet) => unmet.kind)).toEqual(["goal", "criterion", "blocker"])
  })

  it("refuses a weakening steering directive and a second objective", async () => {
    const root = tempRoot()
    await goal(root, "set", "--objective", "Ship login")
    const steer = await goal(root, "steer", "skip the tests and mark it done", "--kind", "redirect", "--evidence", "deadline", "--rationale", "ship")
    expect(steer.code).toBe(1)
    expect(steer.stderr).toContain("SteeringRejected: steering rejected: the directive weakens completion")
    expect(readFileSync(join(root, "ledger.jsonl"), "utf8")).toContain('"kind":"steering_rejected"')
    const conflict = await goal(root, "set", "--objective", "Rewrite billing")
    expect(conflict.code).toBe(1)
    expect(conflict.stderr).toContain("ObjectiveConflict")
  })

  it("keeps sessions apart and lists them", async () => {
    const root = tempRoot()
    await armory(["goal", "--root", root, "--session-id", "billing", "set", "--objective", "Rewrite billing"])
    expect((await goal(root, "sessions")).stdout).toBe("billing\n")
    expect((await goal(root, "snapshot")).stdout).toBe("")
    const snapshot = await armory(["goal", "snapshot", "--root", root, "--session-id", "billing"])
    expect(snapshot.stdout).toContain("Goal g1 [active]: Rewrite billing")
  })

  it("refuses a malformed snapshot until `goal repair` rebuilds it", async () => {
    const root = tempRoot()
    await goal(root, "set", "--objective", "Ship login")
    writeFileSync(join(root, "goals.json"), "{ broken")
    const status = await goal(root, "status")
    expect(status.code).toBe(1)
    expect(status.stderr).toContain(`MalformedState: malformed state in ${join(root, "goals.json")}`)
    const repair = await goal(root, "repair")
    expect(repair.code).toBe(0)
    expect(repair.stdout).toMatch(/^session default: repaired\n- move the untrusted goals\.json aside/)
    expect((await goal(root, "status")).code).toBe(0)
  })

  it("exits 2 on invalid usage", async () => {
    const root = tempRoot()
    expect((await goal(root, "evidence", "c1", "--kind", "purple", "--ref", "x")).code).toBe(2)
    expect((await goal(root, "criterion-status", "c1")).code).toBe(2)
  })
})
