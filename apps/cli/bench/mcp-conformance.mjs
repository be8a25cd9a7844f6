// `pnpm bench`: the official MCP conformance suite (`@modelcontextprotocol/conformance`) over every
// server scenario it knows, against `armory mcp --http` (through a token-adding pass-through) and,
// in the same run, against the reference server `@modelcontextprotocol/server-everything`
// (Streamable HTTP). Prints a row per scenario — whether it applies to Armory and each server's
// passed/total checks — and the totals with their ratio, and writes bench-results/mcp-conformance.json.
// The scenarios that apply must all pass (the test suite holds that); the others call the
// reference server's own fixtures. Needs a build (`pnpm build`).
import { spawn } from "node:child_process"
import { once } from "node:events"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:net"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { setTimeout as sleep } from "node:timers/promises"
import { ARMORY_SCENARIOS, CONFORMANCE_VERSION, runServerScenario, serverScenarios, startTokenPassThrough } from "../test/support/conformance.mjs"
import { reportResults } from "./support/modelClient.mjs"

const bin = join(import.meta.dirname, "..", "dist", "bin.js")
const require = createRequire(import.meta.url)
const everything = join(dirname(require.resolve("@modelcontextprotocol/server-everything/package.json")), "dist", "index.js")
const TOKEN = "bench-conformance-token-0123456789"

const freePort = async () => {
  const probe = createServer()
  await new Promise((resolve) => probe.listen(0, "127.0.0.1", resolve))
  const { port } = probe.address()
  await new Promise((resolve) => probe.close(resolve))
  return port
}

/** Starts a child and resolves with it once `pattern` appears on its stdout or stderr. */
const startUntil = async (args, options, pattern) => {
  const child = spawn(process.execPath, args, { ...options, stdio: ["ignore", "pipe", "pipe"] })
  let printed = ""
  const match = await new Promise((resolve, reject) => {
    const look = (chunk) => {
      printed += chunk
      const found = pattern.exec(printed)
      if (found !== null) resolve(found)
    }
    child.stdout.setEncoding("utf8").on("data", look)
    child.stderr.setEncoding("utf8").on("data", look)
    child.once("exit", (code) => reject(new Error(`${args.join(" ")} exited ${code}: ${printed}`)))
  })
  return { child, match }
}

const stop = async (child) => {
  if (child.exitCode !== null) return
  child.kill("SIGTERM")
  await Promise.race([once(child, "exit"), sleep(5_000).then(() => child.kill("SIGKILL"))])
}

const passed = (run) => run.checks.filter((check) => check.status === "SUCCESS").length
const counted = (run) => run.checks.filter((check) => check.status !== "INFO").length
const ratio = (ours, theirs) => (theirs === 0 ? "n/a" : `${(ours / theirs).toFixed(2)}x`)

const root = mkdtempSync(join(tmpdir(), "armory-bench-conformance-"))
mkdirSync(join(root, ".armory"), { recursive: true })
writeFileSync(join(root, "token"), TOKEN)
const children = []
const closers = []
try {
  const armory = await startUntil(
    [bin, "mcp", "--http", "--port", "0", "--token-file", join(root, "token"), "--json"],
    { cwd: root, env: { ...process.env, HOME: root } },
    /^\{.*"url":"([^"]+)".*\}$/m
  )
  children.push(armory.child)
  const passThrough = await startTokenPassThrough(armory.match[1], TOKEN)
  closers.push(passThrough.close)
  const port = await freePort()
  const reference = await startUntil([everything, "streamableHttp"], { env: { ...process.env, PORT: String(port) } }, /listening on port/)
  children.push(reference.child)
  const referenceUrl = `http://localhost:${port}/mcp`

  const rows = []
  for (const scenario of await serverScenarios()) {
    const ours = await runServerScenario(passThrough.url, scenario)
    const theirs = await runServerScenario(referenceUrl, scenario)
    rows.push({
      scenario,
      appliesToArmory: ARMORY_SCENARIOS.applies.includes(scenario),
      armory: `${passed(ours)}/${counted(ours)}`,
      reference: `${passed(theirs)}/${counted(theirs)}`,
      armoryFailures: ours.checks.filter((check) => check.status === "FAILURE").map((check) => check.errorMessage ?? check.id),
      referenceFailures: theirs.checks.filter((check) => check.status === "FAILURE").map((check) => check.errorMessage ?? check.id)
    })
  }
  const totals = (filter) => {
    const chosen = rows.filter(filter)
    const sum = (key) => chosen.reduce((total, row) => total + Number(row[key].split("/")[0]), 0)
    const all = (key) => chosen.reduce((total, row) => total + Number(row[key].split("/")[1]), 0)
    return { scenarios: chosen.length, armoryPassed: sum("armory"), armoryChecks: all("armory"), referencePassed: sum("reference"), referenceChecks: all("reference") }
  }
  const applicable = totals((row) => row.appliesToArmory)
  const everyScenario = totals(() => true)
  reportResults("mcp-conformance", {
    suite: `@modelcontextprotocol/conformance ${CONFORMANCE_VERSION}`,
    reference: "@modelcontextprotocol/server-everything (streamableHttp)",
    rows: rows.map(({ armoryFailures: _ours, referenceFailures: _theirs, ...row }) => row),
    failures: rows.filter((row) => row.armoryFailures.length > 0 || row.referenceFailures.length > 0).map(({ scenario, armoryFailures, referenceFailures }) => ({ scenario, armoryFailures, referenceFailures })),
    applicable,
    everyScenario
  })
  console.log(
    `scenarios that apply to Armory (${applicable.scenarios}): armory ${applicable.armoryPassed}/${applicable.armoryChecks} checks passed, reference ${applicable.referencePassed}/${applicable.referenceChecks} (${ratio(applicable.armoryPassed, applicable.referencePassed)})`
  )
  console.log(
    `every scenario (${everyScenario.scenarios}): armory ${everyScenario.armoryPassed}/${everyScenario.armoryChecks}, reference ${everyScenario.referencePassed}/${everyScenario.referenceChecks} (the rest call the reference's own fixtures)`
  )
} finally {
  for (const close of closers) await close()
  for (const child of children) await stop(child)
  rmSync(root, { recursive: true, force: true })
}
