import { type ChildProcess, execFile, spawn } from "node:child_process"
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { createServer } from "node:net"
import { dirname, join } from "node:path"
import { promisify } from "node:util"
import { describeRequiring, registryExecutable } from "@armory/config/test-components"
import { expect, it } from "vitest"
import { afterThisTest, temporary, writeFile } from "./hosts/support/hostProject.js"

const execute = promisify(execFile)
const workspaceRoot = join(import.meta.dirname, "..", "..", "..")
const STEP_TIMEOUT_MS = 300_000

/** Runs a command to completion, failing with its output; `env` is added to the test's own. */
const run = async (command: string, args: ReadonlyArray<string>, options: { readonly cwd: string; readonly env?: Record<string, string>; readonly input?: string }) => {
  const child = execute(command, [...args], { cwd: options.cwd, env: { ...process.env, ...options.env }, timeout: STEP_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 })
  child.child.stdin?.end(options.input ?? "")
  return (await child).stdout
}

/** A shell command line as a host runs the ones `armory init` writes: `sh -c`, in the project, with its input on stdin. */
const shell = (line: string, options: { readonly cwd: string; readonly env: Record<string, string>; readonly input?: string }) => run("sh", ["-c", line], options)

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const address = probe.address()
      probe.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0))
    })
  })

const waitFor = async <A>(what: string, attempt: () => Promise<A | undefined>, timeoutMs = 60_000): Promise<A> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const found = await attempt().catch(() => undefined)
    if (found !== undefined) return found
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

const stop = (child: ChildProcess) => () =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    child.once("exit", () => resolve())
    child.kill("SIGTERM")
  })

/**
 * The release copy: the workspace's files as git lists them (committed or not, never ignored), with
 * its dependencies installed from the local store, as a release job checks the repository out.
 */
const releaseCopy = async (work: string): Promise<string> => {
  const release = join(work, "release")
  const listed = await run("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: workspaceRoot })
  for (const file of listed.split("\0").filter((name) => name !== "")) {
    mkdirSync(dirname(join(release, file)), { recursive: true })
    cpSync(join(workspaceRoot, file), join(release, file), { dereference: false })
  }
  await run("pnpm", ["install", "--offline", "--frozen-lockfile", "--ignore-scripts", "--reporter=silent"], { cwd: release })
  return release
}

/** The packages a release publishes: every workspace package that is not private, with its version. */
const publishedPackages = (release: string): ReadonlyArray<{ readonly name: string; readonly version: string; readonly dir: string }> =>
  ["packages", "apps"].flatMap((group) =>
    readdirSync(join(release, group)).flatMap((entry) => {
      const manifest = JSON.parse(readFileSync(join(release, group, entry, "package.json"), "utf8")) as { name: string; version: string; private?: boolean }
      return manifest.private === true ? [] : [{ name: manifest.name, version: manifest.version, dir: join(release, group, entry) }]
    })
  )

/**
 * Verdaccio on 127.0.0.1 with its storage in `work`: `@armory/*` only from what is published to it,
 * every other package from the machine's npm registry through it, publishing for a user created here.
 */
const startRegistry = async (work: string) => {
  const upstream = (await run("npm", ["config", "get", "registry"], { cwd: work })).trim()
  const port = await freePort()
  const url = `http://127.0.0.1:${port}/`
  writeFile(
    work,
    "verdaccio/config.yaml",
    [
      `storage: ${JSON.stringify(join(work, "verdaccio", "storage"))}`,
      "auth:",
      "  htpasswd:",
      `    file: ${JSON.stringify(join(work, "verdaccio", "htpasswd"))}`,
      "uplinks:",
      "  upstream:",
      `    url: ${JSON.stringify(upstream)}`,
      "packages:",
      "  '@armory/*':",
      "    access: $all",
      "    publish: $authenticated",
      "  '**':",
      "    access: $all",
      "    proxy: upstream",
      "log: { type: stdout, format: json, level: error }",
      ""
    ].join("\n")
  )
  const server = spawn(process.execPath, [registryExecutable(), "--config", join(work, "verdaccio", "config.yaml"), "--listen", `127.0.0.1:${port}`], { stdio: "ignore" })
  afterThisTest(stop(server))
  await waitFor("the registry to answer", async () => ((await fetch(`${url}-/ping`)).ok ? true : undefined))
  const user = (await (
    await fetch(`${url}-/user/org.couchdb.user:rehearsal`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "rehearsal", password: "rehearsal-password" }) })
  ).json()) as { token?: string }
  expect(user.token).toEqual(expect.any(String))
  const npmrc = join(work, "publisher.npmrc")
  writeFileSync(npmrc, `//127.0.0.1:${port}/:_authToken=${user.token}\n`)
  return { url, npmrc }
}

describeRequiring("registry", "a release rehearsal on a local npm registry", () => {
  it(
    "versions, builds and publishes every package; then `npx -y @armory/cli init claude-code`, the commands it writes and `npm i @armory/client` work from that registry",
    async () => {
      const work = temporary("armory-release-")
      const release = await releaseCopy(work)
      await run(join(release, "node_modules", ".bin", "changeset"), ["version"], { cwd: release })
      const packages = publishedPackages(release)
      expect(packages.map((entry) => entry.name).toSorted()).toEqual(expect.arrayContaining(["@armory/cli", "@armory/client", "@armory/host", "@armory/mcp"]))
      // A first real version for every package, and its changelog.
      for (const entry of packages) {
        expect({ name: entry.name, version: entry.version }).toEqual({ name: entry.name, version: expect.stringMatching(/^(0\.[1-9]\d*|[1-9]\d*\.\d+)\.\d+$/) })
        expect(readFileSync(join(entry.dir, "CHANGELOG.md"), "utf8")).toContain(`## ${entry.version}`)
      }
      expect(readdirSync(join(release, ".changeset")).filter((file) => file.endsWith(".md") && file !== "README.md")).toEqual([])
      await run("pnpm", ["exec", "turbo", "run", "build", "--output-logs=errors-only"], { cwd: release, env: { TURBO_TELEMETRY_DISABLED: "1" } })

      const registry = await startRegistry(work)
      await run("pnpm", ["-r", "publish", "--registry", registry.url, "--no-git-checks"], { cwd: release, env: { npm_config_userconfig: registry.npmrc } })
      const cli = packages.find((entry) => entry.name === "@armory/cli")
      for (const entry of packages) {
        const published = (await (await fetch(`${registry.url}${entry.name.replace("/", "%2f")}`)).json()) as { "dist-tags": { latest: string } }
        expect({ name: entry.name, latest: published["dist-tags"].latest }).toEqual({ name: entry.name, latest: entry.version })
      }

      // A user's fresh project, with an empty npm cache and nothing of the workspace: npm finds everything in the registry.
      const project = join(work, "project")
      writeFile(project, ".armory/skills/pdf-tools/SKILL.md", "---\nname: pdf-tools\ndescription: Merge PDF files.\nautoInject:\n  keywords: [pdf]\n---\n# PDF\n")
      writeFileSync(join(work, "user.npmrc"), "")
      const user = { npm_config_registry: registry.url, npm_config_cache: join(work, "npm-cache"), npm_config_userconfig: join(work, "user.npmrc"), npm_config_update_notifier: "false" }
      await shell("npx -y @armory/cli init claude-code", { cwd: project, env: user })
      expect((await shell("npx -y @armory/cli --version", { cwd: project, env: user })).trim()).toBe(`armory v${cli?.version}`)

      const settings = JSON.parse(readFileSync(join(project, ".claude", "settings.json"), "utf8")) as { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> }
      const hook = settings.hooks["UserPromptSubmit"]?.[0]?.hooks[0]?.command ?? ""
      expect(hook).toBe("npx -y @armory/cli hook claude-code")
      const answer = await shell(hook, { cwd: project, env: user, input: JSON.stringify({ session_id: "s", cwd: project, hook_event_name: "UserPromptSubmit", prompt: "merge the pdf files" }) })
      expect((JSON.parse(answer) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext).toContain("- pdf-tools (keyword")

      const mcp = JSON.parse(readFileSync(join(project, ".mcp.json"), "utf8")) as { mcpServers: { armory: { command: string; args: Array<string> } } }
      const messages = [
        { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "rehearsal", version: "1" } } },
        { jsonrpc: "2.0", method: "notifications/initialized" },
        { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "goal_set", arguments: { objective: "Release Armory" } } }
      ]
      const served = await run(mcp.mcpServers.armory.command, mcp.mcpServers.armory.args, { cwd: project, env: user, input: `${messages.map((message) => JSON.stringify(message)).join("\n")}\n` })
      const answers = served
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as { id?: number; result?: { serverInfo?: { version: string }; structuredContent?: { objective?: string } } })
      expect(answers.find((line) => line.id === 1)?.result?.serverInfo?.version).toBe(cli?.version)
      expect(answers.find((line) => line.id === 2)?.result?.structuredContent?.objective).toBe("Release Armory")

      // A consumer of the HTTP client alone, against `armory serve` from the same registry.
      const consumer = join(work, "consumer")
      writeFile(consumer, "package.json", JSON.stringify({ name: "client-consumer", private: true, type: "module" }))
      await run("npm", ["install", "--no-audit", "--no-fund", "@armory/client"], { cwd: consumer, env: user })
      expect(readdirSync(join(consumer, "node_modules", "@armory"))).toEqual(["client"])
      const serve = spawn("sh", ["-c", "exec npx -y @armory/cli serve --port 0"], { cwd: project, env: { ...process.env, ...user, ARMORY_TOKEN: "rehearsal-token" }, stdio: ["ignore", "pipe", "ignore"], detached: true })
      afterThisTest(() => {
        if (serve.exitCode === null) process.kill(-(serve.pid ?? 0), "SIGTERM")
      })
      let printed = ""
      serve.stdout.setEncoding("utf8").on("data", (chunk: string) => (printed += chunk))
      const baseUrl = await waitFor("armory serve to listen", async () => /listening on (http:\/\/\S+?) /.exec(printed)?.[1])
      writeFile(
        consumer,
        "health.mjs",
        'import { createClient } from "@armory/client"\nconst { data } = await createClient({ baseUrl: process.argv[2], token: "rehearsal-token" }).GET("/skills")\nconsole.log(JSON.stringify(data.skills.map((skill) => skill.name)))\n'
      )
      expect(JSON.parse(await run(process.execPath, ["health.mjs", baseUrl], { cwd: consumer }))).toEqual(["pdf-tools"])
    },
    STEP_TIMEOUT_MS * 4
  )
})
