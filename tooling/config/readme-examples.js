import { execFile, spawn } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join, relative, resolve } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const run = promisify(execFile)
const INSTALL_TIMEOUT_MS = 90_000
const INSTALL_ATTEMPTS = 3

const FENCE = /^```ts\n([\s\S]*?)^```$/gm
const PRINTS = /\/\/ prints: (.*)$/
const IMPORT_SPECIFIER = /^\s*(?:import|export)\s[^"']*?\bfrom\s+["']([^"']+)["']|^\s*import\s+["']([^"']+)["']/gm
const LOADED_SPECIFIER = /\b(?:import|resolve)\(\s*["']([^"']+)["']/g
const SHELL_FENCE = /^```(?:sh|bash|shell)\n([\s\S]*?)^```$/gm
const INSTALL_COMMAND = /^\s*(?:npm\s+(?:install|i|add)|pnpm\s+add)\s+([^#\n]+)/
const TYPE_ERROR = /^(example-\d+\.ts)\((\d+),(\d+)\): (error TS\d+: .*)$/
const SETUP_TIMEOUT_MS = 300_000
const EXAMPLE_TIMEOUT_MS = 120_000
const SERVE_START_TIMEOUT_MS = 60_000

/** The consumer's compiler settings: what a strict ESM project on Node writes, nothing monorepo-specific. */
const CONSUMER_TSCONFIG = {
  compilerOptions: {
    strict: true,
    module: "nodenext",
    moduleResolution: "nodenext",
    target: "es2023",
    lib: ["es2023"],
    types: ["node"],
    noEmit: true,
    // Node runs the examples by stripping their types, so they may only use erasable syntax.
    erasableSyntaxOnly: true,
    verbatimModuleSyntax: true,
    // As `tsc --init` writes it: effect's own declarations need the DOM lib otherwise.
    skipLibCheck: true
  },
  include: ["example-*.ts"]
}

const readJson = (file) => JSON.parse(readFileSync(file, "utf8"))

/** `effect/http` → `effect`, `@effect/platform-node/NodeHttpServer` → `@effect/platform-node`; builtins and relative paths are none. */
const packageOf = (specifier) => {
  if (specifier.startsWith("node:") || specifier.startsWith(".") || specifier.startsWith("/")) return undefined
  const parts = specifier.split("/")
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]
}

/** The workspace's Armory packages by name, each with its directory and manifest. */
const workspacePackages = (workspaceRoot) => {
  const byName = new Map()
  for (const group of ["packages", "apps"]) {
    const groupDir = join(workspaceRoot, group)
    if (!existsSync(groupDir)) continue
    for (const entry of readdirSync(groupDir, { withFileTypes: true })) {
      const manifestPath = join(groupDir, entry.name, "package.json")
      if (!entry.isDirectory() || !existsSync(manifestPath)) continue
      const manifest = readJson(manifestPath)
      byName.set(manifest.name, { dir: join(groupDir, entry.name), manifest })
    }
  }
  return byName
}

/** The Armory packages `names` need at run time, themselves included. */
const armoryClosure = (names, workspace) => {
  const closure = new Set()
  const visit = (name) => {
    if (closure.has(name) || !workspace.has(name)) return
    closure.add(name)
    const { manifest } = workspace.get(name)
    for (const dependency of Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies })) visit(dependency)
  }
  for (const name of names) visit(name)
  return [...closure]
}

/**
 * Packs `names` and every Armory package they need at run time into `destination` the way they
 * will be published (`pnpm pack` rewrites `workspace:` and `catalog:` ranges): name → tarball path.
 */
export const packArmoryPackages = async (workspaceRoot, names, destination) => {
  const workspace = workspacePackages(workspaceRoot)
  const packed = {}
  for (const name of armoryClosure(names, workspace)) {
    const { stdout } = await run("pnpm", ["pack", "--pack-destination", destination, "--json"], { cwd: workspace.get(name).dir })
    packed[name] = JSON.parse(stdout).filename
  }
  return packed
}

/** The version of `name` this package was built and tested with: the one Node finds from its directory. */
const installedVersion = (packageDir, name) => {
  for (let directory = packageDir; ; directory = dirname(directory)) {
    const manifestPath = join(directory, "node_modules", name, "package.json")
    if (existsSync(manifestPath)) return readJson(manifestPath).version
    if (dirname(directory) === directory) throw new Error(`${name} is not installed where ${packageDir} can find it`)
  }
}

const findWorkspaceRoot = (start) => {
  for (let directory = start; ; directory = dirname(directory)) {
    if (existsSync(join(directory, "pnpm-workspace.yaml"))) return directory
    if (dirname(directory) === directory) throw new Error(`no pnpm-workspace.yaml above ${start}`)
  }
}

/** The lines an example says it prints, in order. */
const expectedLines = (code) =>
  code
    .split("\n")
    .map((line) => PRINTS.exec(line)?.[1])
    .filter((line) => line !== undefined)

/** `@scope/name@^1.2` → `@scope/name`, `name@latest` → `name`. */
const withoutVersion = (argument) => {
  const at = argument.indexOf("@", argument.startsWith("@") ? 1 : 0)
  return at === -1 ? argument : argument.slice(0, at)
}

/**
 * The packages each install line of the README's shell blocks names (`npm install …`, `npm i …`,
 * `pnpm add …`), in the order a reader meets them; flags and comments are not packages.
 */
export const installLines = (readme) =>
  [...readme.matchAll(SHELL_FENCE)].flatMap((match) =>
    (match[1] ?? "").split("\n").flatMap((line) => {
      const command = INSTALL_COMMAND.exec(line)
      if (command === null) return []
      return [command[1].trim().split(/\s+/).filter((argument) => !argument.startsWith("-")).map(withoutVersion)]
    })
  )

/** The packages an example loads: what it imports, and what it resolves by name (a server it starts). */
const packagesLoadedBy = (code) => {
  const names = new Set()
  for (const pattern of [IMPORT_SPECIFIER, LOADED_SPECIFIER]) {
    for (const match of code.matchAll(pattern)) {
      const name = packageOf(match[1] ?? match[2])
      if (name !== undefined) names.add(name)
    }
  }
  return names
}

/**
 * What a reader has installed after each install line: the lines add up, as they do in a project
 * someone follows the README in. Each example runs in the first of these that holds every package
 * it loads, so its README gives exactly the install line it needs, or it fails naming what is missing.
 */
export const assignExamples = (lines, blocks) => {
  const stages = lines.map((_, index) => [...new Set(lines.slice(0, index + 1).flat())])
  return blocks.map((code) => {
    const loaded = [...packagesLoadedBy(code)]
    const stage = stages.findIndex((installed) => loaded.every((name) => installed.includes(name)))
    if (stage !== -1) return { stage, missing: [] }
    const fullest = stages.at(-1) ?? []
    return { stage: -1, missing: loaded.filter((name) => !fullest.includes(name)) }
  })
}

/**
 * Sets up a project outside the monorepo that has exactly what `installed` names, as a reader who
 * ran the README's install lines has: the packed tarballs of the Armory packages among them (the
 * Armory packages those need come from their tarballs too, as the registry would serve them) and
 * the other packages at the versions the workspace uses. Nothing else is added: a peer the lines
 * leave out is one the reader's package manager installs on its own or the example cannot load.
 */
const createConsumer = async ({ packageDir, installed, blocks, files, tag }) => {
  const workspaceRoot = findWorkspaceRoot(packageDir)
  const workspace = workspacePackages(workspaceRoot)
  const self = readJson(join(packageDir, "package.json")).name
  const consumer = mkdtempSync(join(tmpdir(), `armory-readme-${self.replace(/^@armory\//, "")}-${tag}-`))
  const tarballs = join(consumer, ".tarballs")
  mkdirSync(tarballs)
  const armory = armoryClosure(installed.filter((name) => workspace.has(name)), workspace)
  const packed = Object.fromEntries(
    Object.entries(await packArmoryPackages(workspaceRoot, armory, tarballs)).map(([name, file]) => [name, `file:${relative(consumer, file)}`])
  )
  const dependencies = Object.fromEntries(installed.map((name) => [name, packed[name] ?? installedVersion(packageDir, name)]))
  writeFileSync(
    join(consumer, "package.json"),
    `${JSON.stringify(
      {
        name: "readme-consumer",
        private: true,
        type: "module",
        dependencies,
        // The compiler's view of Node's globals, for the type check only.
        devDependencies: { "@types/node": installedVersion(packageDir, "@types/node") },
        // The Armory packages the tarballs depend on come from the other tarballs, not the registry.
        pnpm: { overrides: packed }
      },
      null,
      2
    )}\n`
  )
  writeFileSync(join(consumer, "tsconfig.json"), `${JSON.stringify(CONSUMER_TSCONFIG, null, 2)}\n`)
  for (const [path, contents] of Object.entries(files)) {
    mkdirSync(dirname(join(consumer, path)), { recursive: true })
    writeFileSync(join(consumer, path), contents)
  }
  for (const { code, file } of blocks) writeFileSync(join(consumer, file), code)
  await installConsumer(consumer)
  return consumer
}

/**
 * Installs the consumer project. An install that stalls is killed and tried again, rather than left
 * running past the test that started it; one that fails outright fails the test with its output.
 * pnpm sits idle for good when a registry request made while resolving a dependency's dependencies
 * fails, as it does when the machine reaches the registry through a proxy whose certificate Node
 * does not trust: turbo passes the machine's TLS and proxy settings to the tests (turbo.json), and a
 * stall names them.
 */
const installConsumer = async (consumer) => {
  for (let attempt = 1; ; attempt++) {
    try {
      await run(
        "pnpm",
        ["install", "--ignore-workspace", "--prefer-offline", "--no-frozen-lockfile", "--config.strict-peer-dependencies=false", "--reporter=ndjson"],
        { cwd: consumer, maxBuffer: 16 * 1024 * 1024, timeout: INSTALL_TIMEOUT_MS, killSignal: "SIGKILL" }
      )
      return
    } catch (error) {
      if (error.killed !== true) throw error
      if (attempt === INSTALL_ATTEMPTS) {
        // pnpm's last log lines say which step it stalled at.
        const last = `${error.stdout ?? ""}${error.stderr ?? ""}`.trimEnd().split("\n").slice(-3).join("\n")
        const trust = ["NODE_EXTRA_CA_CERTS", "HTTPS_PROXY", "https_proxy"].map((name) => `${name}=${process.env[name] ?? "(unset)"}`).join(", ")
        throw new Error(
          `pnpm install in ${consumer} stalled ${INSTALL_ATTEMPTS} times (${INSTALL_TIMEOUT_MS} ms each) ` +
            `(a registry request it could not make leaves it idle; here ${trust}); its last log lines:\n${last}`,
          { cause: error }
        )
      }
    }
  }
}

/** Type errors per example file, from one `tsc --noEmit` over the consumer project. */
const typeCheck = async (packageDir, consumer) => {
  const tsc = createRequire(join(packageDir, "package.json")).resolve("typescript/bin/tsc")
  const errors = {}
  const output = await run(process.execPath, [tsc, "-p", consumer, "--pretty", "false"], { cwd: consumer, maxBuffer: 16 * 1024 * 1024 }).then(
    ({ stdout }) => stdout,
    (failure) => `${failure.stdout ?? ""}${failure.stderr ?? ""}`
  )
  let current = "*"
  for (const line of output.split("\n")) {
    if (line.trim() === "") continue
    const match = TYPE_ERROR.exec(line)
    if (match !== null) {
      const [, file, row, column, message] = match
      current = file
      ;(errors[file] ??= []).push(`line ${row}, column ${column}: ${message}`)
    } else if (/^\s/.test(line) && errors[current] !== undefined) {
      // The rest of a multi-line diagnostic belongs to the error above it.
      errors[current].push(line.trim())
    } else {
      current = "*"
      ;(errors["*"] ??= []).push(line)
    }
  }
  return errors
}

/**
 * `armory serve` from the workspace's built CLI, in a directory of its own holding `files`, on a free
 * loopback port: what a reader of a client's README starts before running its examples.
 */
const startArmoryServe = async ({ packageDir, files, args, token }) => {
  const directory = mkdtempSync(join(tmpdir(), "armory-readme-serve-"))
  for (const [path, contents] of Object.entries(files)) {
    mkdirSync(dirname(join(directory, path)), { recursive: true })
    writeFileSync(join(directory, path), contents)
  }
  const cli = join(findWorkspaceRoot(packageDir), "apps", "cli", "dist", "bin.js")
  const child = spawn(process.execPath, [cli, "serve", "--json", ...args], {
    cwd: directory,
    env: { ...process.env, ARMORY_TOKEN: token },
    stdio: ["ignore", "pipe", "pipe"]
  })
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolveExit) => child.once("exit", resolveExit))
      child.kill("SIGTERM")
      await exited
    }
    rmSync(directory, { recursive: true, force: true })
  }
  let output = ""
  const url = await new Promise((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`armory serve printed no URL within ${SERVE_START_TIMEOUT_MS} ms: ${output}`)), SERVE_START_TIMEOUT_MS)
    child.stdout.on("data", (chunk) => {
      output += chunk
      const line = output.split("\n").find((candidate) => candidate.startsWith("{"))
      if (line === undefined) return
      clearTimeout(timer)
      resolveUrl(JSON.parse(line).url)
    })
    child.stderr.on("data", (chunk) => {
      output += chunk
    })
    child.once("exit", (code) => {
      clearTimeout(timer)
      reject(new Error(`armory serve exited with ${code} before it listened: ${output}`))
    })
  }).catch(async (error) => {
    await stop()
    throw error
  })
  return { url, stop }
}

/**
 * Registers vitest tests for every ```ts block of a package README, as a user would meet it: each
 * block is a file of a project outside the monorepo that has exactly what the README's install lines
 * install (the first of them, added up, that holds every package the block loads), the Armory ones
 * from their packed tarballs; it is type-checked there with `tsc --noEmit` (strict, nodenext) and
 * run twice with Node (an example that works only once is broken); each `// prints: <text>` comment
 * must be the next line the example prints. `files` are written into that project first (fixtures
 * an example reads by relative path), `env` is added to the examples' environment, and with
 * `armoryServe` an `armory serve` runs beside them (in a directory holding `files`, with `args` and
 * the bearer token `token`), its URL in the examples' `ARMORY_URL`.
 */
export const describeReadmeExamples = (packageDirectory, { files = {}, env = {}, armoryServe } = {}) => {
  const packageDir = resolve(packageDirectory)
  const readme = readFileSync(join(packageDir, "README.md"), "utf8")
  const self = readJson(join(packageDir, "package.json")).name
  const lines = installLines(readme)
  const blocks = [...readme.matchAll(FENCE)].map((match, index) => ({ code: match[1] ?? "", file: `example-${index + 1}.ts` }))
  const assigned = assignExamples(lines, blocks.map((block) => block.code))
  const consumers = new Map()
  const typeErrors = {}
  let served

  describe("README examples", () => {
    beforeAll(async () => {
      for (const stage of new Set(assigned.map((assignment) => assignment.stage).filter((index) => index !== -1))) {
        const installed = [...new Set(lines.slice(0, stage + 1).flat())]
        const own = blocks.filter((_, index) => assigned[index].stage === stage)
        const consumer = await createConsumer({ packageDir, installed, blocks: own, files, tag: `line${stage + 1}` })
        consumers.set(stage, consumer)
        for (const [file, errors] of Object.entries(await typeCheck(packageDir, consumer))) typeErrors[file] = [...(typeErrors[file] ?? []), ...errors]
      }
      if (armoryServe !== undefined) served = await startArmoryServe({ packageDir, files, ...armoryServe })
    }, SETUP_TIMEOUT_MS)
    afterAll(async () => {
      await served?.stop()
      for (const consumer of consumers.values()) rmSync(consumer, { recursive: true, force: true })
    })

    it("has examples and an install line that installs the package itself, and each consumer project type-checks apart from them", () => {
      expect(blocks.length).toBeGreaterThan(0)
      expect(lines[0] ?? [], "the packages of the README's first install line").toContain(self)
      expect(typeErrors["*"] ?? []).toEqual([])
    })

    blocks.forEach(({ code, file }, index) => {
      const expected = expectedLines(code)
      it(
        `example ${index + 1} needs no more than the README's install lines, type-checks as a consumer's file and prints what the README says, run after run`,
        async () => {
          const { stage, missing } = assigned[index]
          expect(missing, `packages ${file} loads that no install line of the README installs`).toEqual([])
          expect(typeErrors[file] ?? [], `tsc --noEmit on ${file}`).toEqual([])
          for (const attempt of ["first", "second"]) {
            const { stdout } = await run(process.execPath, [file], {
              cwd: consumers.get(stage),
              env: { ...process.env, ...env, ...(served === undefined ? {} : { ARMORY_URL: served.url }) },
              timeout: EXAMPLE_TIMEOUT_MS
            }).catch((failure) => {
              throw new Error(`${file} failed on its ${attempt} run: ${failure.stderr || failure.message}`)
            })
            expect(stdout.trimEnd().split("\n").slice(0, expected.length), `what the ${attempt} run printed`).toEqual(expected)
          }
        },
        EXAMPLE_TIMEOUT_MS * 2 + 10_000
      )
    })
  })
}
