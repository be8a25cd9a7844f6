import { execFile } from "node:child_process"
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
const TYPE_ERROR = /^(example-\d+\.ts)\((\d+),(\d+)\): (error TS\d+: .*)$/
const SETUP_TIMEOUT_MS = 300_000
const EXAMPLE_TIMEOUT_MS = 120_000

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

/**
 * Sets up a project outside the monorepo that consumes the package the way a user does: the packed
 * tarballs of the package and of every Armory package the examples import (and theirs), installed
 * by name next to the third-party packages the examples import, at the versions the workspace uses.
 */
const createConsumer = async ({ packageDir, blocks, files, dependencies: extra }) => {
  const workspaceRoot = findWorkspaceRoot(packageDir)
  const workspace = workspacePackages(workspaceRoot)
  const self = readJson(join(packageDir, "package.json")).name
  const imported = new Set([self])
  for (const code of blocks) {
    for (const match of code.matchAll(IMPORT_SPECIFIER)) {
      const name = packageOf(match[1] ?? match[2])
      if (name !== undefined) imported.add(name)
    }
  }
  const consumer = mkdtempSync(join(tmpdir(), `armory-readme-${self.replace(/^@armory\//, "")}-`))
  const tarballs = join(consumer, ".tarballs")
  mkdirSync(tarballs)
  const armory = armoryClosure([...imported].filter((name) => workspace.has(name)), workspace)
  const packed = Object.fromEntries(
    Object.entries(await packArmoryPackages(workspaceRoot, armory, tarballs)).map(([name, file]) => [name, `file:${relative(consumer, file)}`])
  )
  const dependencies = {}
  for (const name of extra) dependencies[name] = installedVersion(packageDir, name)
  for (const name of imported) {
    dependencies[name] = packed[name] ?? installedVersion(packageDir, name)
  }
  // Peers the packed packages declare that the examples do not import still have to be installed
  // by the consumer (effect above all); optional peers are left out, as a user would.
  for (const name of armory) {
    const { manifest } = workspace.get(name)
    for (const peer of Object.keys(manifest.peerDependencies ?? {})) {
      if (manifest.peerDependenciesMeta?.[peer]?.optional === true || dependencies[peer] !== undefined || packed[peer] !== undefined) continue
      dependencies[peer] = installedVersion(workspace.get(name).dir, peer)
    }
  }
  writeFileSync(
    join(consumer, "package.json"),
    `${JSON.stringify(
      {
        name: "readme-consumer",
        private: true,
        type: "module",
        dependencies,
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
  blocks.forEach((code, index) => writeFileSync(join(consumer, `example-${index + 1}.ts`), code))
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
 * Registers vitest tests for every ```ts block of a package README, as a user would meet it: each
 * block is a file of a project outside the monorepo that installs the packed tarballs by their
 * published names, is type-checked there with `tsc --noEmit` (strict, nodenext), and is run twice
 * with Node (an example that works only once is broken); each `// prints: <text>` comment must be
 * the next line the example prints. `files` are written into that project first (fixtures an
 * example reads by relative path), `env` is added to the examples' environment, and `dependencies`
 * (third-party packages an example uses without importing them, such as an MCP server it starts)
 * are installed beside the imported ones, at the versions the package uses.
 */
export const describeReadmeExamples = (packageDirectory, { files = {}, env = {}, dependencies = [] } = {}) => {
  const packageDir = resolve(packageDirectory)
  const readme = readFileSync(join(packageDir, "README.md"), "utf8")
  const blocks = [...readme.matchAll(FENCE)].map((match) => match[1] ?? "")
  let consumer = ""
  let typeErrors = {}

  describe("README examples", () => {
    beforeAll(async () => {
      consumer = await createConsumer({ packageDir, blocks, files, dependencies })
      typeErrors = await typeCheck(packageDir, consumer)
    }, SETUP_TIMEOUT_MS)
    afterAll(() => {
      if (consumer !== "") rmSync(consumer, { recursive: true, force: true })
    })

    it("has examples, and the consumer project type-checks apart from them", () => {
      expect(blocks.length).toBeGreaterThan(0)
      expect(typeErrors["*"] ?? []).toEqual([])
    })

    blocks.forEach((code, index) => {
      const file = `example-${index + 1}.ts`
      const expected = expectedLines(code)
      it(
        `example ${index + 1} type-checks as a consumer's file and prints what the README says, run after run`,
        async () => {
          expect(typeErrors[file] ?? [], `tsc --noEmit on ${file}`).toEqual([])
          for (const attempt of ["first", "second"]) {
            const { stdout } = await run(process.execPath, [file], {
              cwd: consumer,
              env: { ...process.env, ...env },
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
