// Running the official MCP conformance suite (`@modelcontextprotocol/conformance`) against an MCP
// endpoint: shared by the conformance test and the benchmark-style report that runs the reference
// server beside Armory.
import { execFile } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { createServer, request } from "node:http"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"

const conformancePackage = createRequire(import.meta.url).resolve("@modelcontextprotocol/conformance/package.json")
const conformanceBin = join(dirname(conformancePackage), JSON.parse(readFileSync(conformancePackage, "utf8")).bin.conformance)

/** The suite's version, as its package gives it. */
export const CONFORMANCE_VERSION = JSON.parse(readFileSync(conformancePackage, "utf8")).version

const FIXTURE_TOOL = "calls a fixture tool only the suite's reference server has"
const FIXTURE_RESOURCE = "reads a fixture resource (test://…) only the suite's reference server has"
const NO_PROMPTS = "Armory serves no prompts and does not advertise them"

/**
 * The server scenarios that exercise what `armory mcp --http` offers, which must all pass; and every
 * other scenario of the suite with the reason it does not apply. A scenario the suite adds later is
 * in neither, and the test says so.
 */
export const ARMORY_SCENARIOS = {
  applies: ["server-initialize", "ping", "logging-set-level", "tools-list", "resources-list", "server-sse-multiple-streams", "dns-rebinding-protection"],
  notApplicable: {
    "completion-complete":
      "completes an argument of the fixture prompt test_prompt_with_arguments; Armory has no prompts and answers an unknown reference with -32602, as the spec says (its own completion, of skill://{name}, is tested with the SDK client)",
    "tools-call-simple-text": FIXTURE_TOOL,
    "tools-call-image": FIXTURE_TOOL,
    "tools-call-audio": FIXTURE_TOOL,
    "tools-call-embedded-resource": FIXTURE_TOOL,
    "tools-call-mixed-content": FIXTURE_TOOL,
    "tools-call-with-logging": FIXTURE_TOOL,
    "tools-call-error": FIXTURE_TOOL,
    "tools-call-with-progress": FIXTURE_TOOL,
    "tools-call-sampling": FIXTURE_TOOL,
    "tools-call-elicitation": FIXTURE_TOOL,
    "json-schema-2020-12": FIXTURE_TOOL,
    "elicitation-sep1034-defaults": FIXTURE_TOOL,
    "elicitation-sep1330-enums": FIXTURE_TOOL,
    "server-sse-polling": FIXTURE_TOOL,
    "resources-read-text": FIXTURE_RESOURCE,
    "resources-read-binary": FIXTURE_RESOURCE,
    "resources-templates-read": FIXTURE_RESOURCE,
    "resources-subscribe": `${FIXTURE_RESOURCE}; over Streamable HTTP Armory does not advertise subscriptions (on stdio it does, tested with the SDK client)`,
    "resources-unsubscribe": `${FIXTURE_RESOURCE}; over Streamable HTTP Armory does not advertise subscriptions (on stdio it does, tested with the SDK client)`,
    "prompts-list": NO_PROMPTS,
    "prompts-get-simple": NO_PROMPTS,
    "prompts-get-with-args": NO_PROMPTS,
    "prompts-get-embedded-resource": NO_PROMPTS,
    "prompts-get-with-image": NO_PROMPTS
  }
}

const runSuite = (args) =>
  new Promise((resolve) => {
    execFile(process.execPath, [conformanceBin, ...args], { maxBuffer: 16 * 1024 * 1024, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr })
    })
  })

/** Every server scenario the suite knows (`conformance list`), in its order. */
export const serverScenarios = async () => {
  const { code, stdout, stderr } = await runSuite(["list"])
  if (code !== 0) throw new Error(`conformance list exited ${code}: ${stderr}`)
  const section = stdout.split(/\n\s*\n/).find((block) => block.startsWith("Server scenarios")) ?? ""
  return [...section.matchAll(/^\s+- ([\w-]+)/gm)].map((match) => match[1])
}

/** Runs one server scenario against `url`: the suite's exit code and its checks (`checks.json`). */
export const runServerScenario = async (url, scenario) => {
  const output = mkdtempSync(join(tmpdir(), "armory-conformance-"))
  try {
    const { code, stdout, stderr } = await runSuite(["server", "--url", url, "--scenario", scenario, "-o", output])
    const [run] = readdirSync(output)
    const checks = run === undefined ? [] : JSON.parse(readFileSync(join(output, run, "checks.json"), "utf8"))
    return { code, checks: checks.map(({ id, status, errorMessage }) => ({ id, status, ...(errorMessage === undefined ? {} : { errorMessage }) })), output: `${stdout}${stderr}` }
  } finally {
    rmSync(output, { recursive: true, force: true })
  }
}

/**
 * A pass-through on 127.0.0.1 that adds `Authorization: Bearer <token>` to every request for an
 * endpoint the suite cannot give a token to. A `Host` or `Origin` naming the pass-through itself is
 * rewritten to name the endpoint, as if the client had connected to it directly; any other value
 * (the suite's DNS-rebinding probes) reaches the endpoint untouched.
 */
export const startTokenPassThrough = async (target, token) => {
  const endpoint = new URL(target)
  const server = createServer((incoming, outgoing) => {
    const own = [`localhost:${server.address().port}`, `127.0.0.1:${server.address().port}`]
    const renamed = (authority) => (own.includes(authority) ? `${authority.split(":")[0]}:${endpoint.port}` : authority)
    const headers = { ...incoming.headers, authorization: `Bearer ${token}` }
    if (typeof headers.host === "string") headers.host = renamed(headers.host)
    if (typeof headers.origin === "string" && headers.origin.startsWith("http://")) headers.origin = `http://${renamed(headers.origin.slice("http://".length))}`
    const forwarded = request({ host: endpoint.hostname, port: endpoint.port, method: incoming.method, path: incoming.url, headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(outgoing)
    })
    forwarded.on("error", (error) => outgoing.writeHead(502).end(String(error)))
    outgoing.on("close", () => forwarded.destroy())
    incoming.pipe(forwarded)
  })
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://localhost:${server.address().port}${endpoint.pathname}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
