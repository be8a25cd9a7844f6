#!/usr/bin/env node
// Gets a fresh machine from "Node and npm only" to a working Armory checkout, without global
// changes: when the machine's Node is older than the workspace needs, Node (the major in
// .node-version) comes from the npm registry's `node-<os>-<arch>` package into `.toolchain/`;
// pnpm at the version pinned in `packageManager` goes there too. Everything after that runs with
// `.toolchain/bin` first on PATH. This file must run on Node 20 with no dependencies.
//
//   node tooling/scripts/bootstrap.mjs quickstart   install, build, run the CLI's main job
//   node tooling/scripts/bootstrap.mjs test         ready the machine (Chromium, PostgreSQL), install,
//                                                   run every test through turbo, summarise
//   node tooling/scripts/bootstrap.mjs exec <cmd…>  run one command with the toolchain on PATH
import { spawnSync } from "node:child_process"
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { UnknownOptOut } from "../config/components.js"
import { satisfiesMinimum } from "./node-version.mjs"
import { MachineNotReady, prepareTestMachine } from "./test-machine.mjs"
import { clearReports } from "./test-summary.mjs"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..")
const toolchain = join(root, ".toolchain")
const toolchainBin = join(toolchain, "bin")
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"))
const minimumNode = manifest.engines.node.replace(/^>=/, "")
const nodeMajor = readFileSync(join(root, ".node-version"), "utf8").trim()
const pnpmSpec = manifest.packageManager.split("+")[0]
const pnpmVersion = pnpmSpec.replace(/^pnpm@/, "")

const log = (message) => process.stderr.write(`armory bootstrap: ${message}\n`)

const fail = (message, code = 1) => {
  log(message)
  process.exit(code)
}

/** Chromium and PostgreSQL for the real-component suites, or one line saying which is missing. */
const readyTestMachine = () => {
  try {
    const skipped = prepareTestMachine({ log })
    if (skipped.length > 0) log(`opted out of ${skipped.join(", ")} (ARMORY_TEST_SKIP): those suites are skipped and the run is not a full one`)
  } catch (error) {
    if (error instanceof UnknownOptOut) fail(error.message, 2)
    if (error instanceof MachineNotReady) fail(`the test suite cannot run: ${error.message}`)
    throw error
  }
}

const run = (command, args, options = {}) => {
  const result = spawnSync(command, args, { stdio: "inherit", cwd: root, ...options })
  if (result.error) fail(`could not run ${command}: ${result.error.message}`)
  return result.status ?? 1
}

const runOrFail = (command, args, options) => {
  const status = run(command, args, options)
  if (status !== 0) fail(`\`${[command, ...args].join(" ")}\` exited with ${status}`)
}

const capture = (command, args, env) => {
  const result = spawnSync(command, args, { encoding: "utf8", env })
  return result.status === 0 ? result.stdout.trim() : undefined
}

const nodePlatformPackage = () => {
  const os = { linux: "linux", darwin: "darwin", win32: "win" }[process.platform]
  const arch = { x64: "x64", arm64: "arm64" }[process.arch]
  if (os === undefined || arch === undefined) {
    fail(`no Node package for ${process.platform}/${process.arch}; install Node >= ${minimumNode} yourself`)
  }
  return `node-${os}-${arch}`
}

const npmCommand = () => {
  // Under `npm run`, npm tells us which npm-cli.js started us; calling it with our own Node avoids
  // depending on how npm was installed.
  const cli = process.env.npm_execpath
  return cli !== undefined && cli.endsWith(".js")
    ? { command: process.execPath, prefix: [cli] }
    : { command: process.platform === "win32" ? "npm.cmd" : "npm", prefix: [] }
}

const installedVersion = (binary) => capture(binary, ["--version"], { PATH: process.env.PATH ?? "" })

const linkExecutable = (target, name) => {
  const link = join(toolchainBin, name)
  rmSync(link, { force: true })
  symlinkSync(target, link)
}

const writeShim = (name, nodeBinary, script) => {
  const shim = join(toolchainBin, name)
  writeFileSync(shim, `#!/bin/sh\nexec "${nodeBinary}" "${script}" "$@"\n`)
  chmodSync(shim, 0o755)
}

const ensureToolchain = () => {
  const localNode = join(toolchainBin, "node")
  const localPnpm = join(toolchainBin, "pnpm")
  const machineNodeFits = satisfiesMinimum(process.versions.node, minimumNode)
  const nodeReady = machineNodeFits || installedVersion(localNode)?.startsWith(`v${nodeMajor}.`) === true
  const pnpmReady = installedVersion(localPnpm) === pnpmVersion
  if (nodeReady && pnpmReady) return

  const packages = [`${pnpmSpec}`]
  if (!machineNodeFits) {
    log(`Node ${process.versions.node} is older than ${minimumNode}; installing Node ${nodeMajor} into .toolchain/`)
    packages.push(`${nodePlatformPackage()}@${nodeMajor}`)
  }
  log(`installing ${packages.join(", ")} from the npm registry into .toolchain/`)
  mkdirSync(toolchainBin, { recursive: true })
  const npm = npmCommand()
  runOrFail(npm.command, [
    ...npm.prefix,
    "install",
    "--prefix",
    toolchain,
    "--no-audit",
    "--no-fund",
    "--loglevel=error",
    ...packages
  ])

  const nodeBinary = machineNodeFits
    ? process.execPath
    : join(toolchain, "node_modules", nodePlatformPackage(), "bin", "node")
  if (!existsSync(nodeBinary)) fail(`expected a Node binary at ${nodeBinary}`)
  linkExecutable(nodeBinary, "node")
  writeShim("pnpm", join(toolchainBin, "node"), join(toolchain, "node_modules", "pnpm", "bin", "pnpm.cjs"))
  log(`toolchain ready: node ${installedVersion(join(toolchainBin, "node"))}, pnpm ${installedVersion(localPnpm)}`)
}

const toolchainEnv = () => ({
  ...process.env,
  PATH: `${toolchainBin}${process.platform === "win32" ? ";" : ":"}${process.env.PATH ?? ""}`,
  // pnpm would otherwise try to fetch the version in `packageManager` itself.
  COREPACK_ENABLE_STRICT: "0",
  npm_config_manage_package_manager_versions: "false"
})

const pnpm = (args) => {
  runOrFail("pnpm", args, { env: toolchainEnv() })
}

const install = () => {
  pnpm(["install", "--frozen-lockfile", "--prefer-offline"])
}

const [command, ...rest] = process.argv.slice(2)
switch (command) {
  case "quickstart": {
    ensureToolchain()
    install()
    pnpm(["run", "build"])
    log("running the CLI's main job: which bundled example skills arm for a prompt, a page and an edited file")
    pnpm([
      "run",
      "--silent",
      "cli",
      "arm",
      "Open the browser, click Export and 요약해줘 the PDF",
      "--url",
      "http://localhost:3000/reports",
      "--edited",
      "examples/edits/report.ts",
      "--dir",
      "examples/skills"
    ])
    break
  }
  case "test": {
    readyTestMachine()
    ensureToolchain()
    install()
    clearReports()
    // One package's suite at a time: several suites start real processes, servers and a browser,
    // and the 2-core machines this runs on would otherwise skew the timing-sensitive ones.
    const status = run("pnpm", ["exec", "turbo", "run", "test", "--continue", "--concurrency=1", ...rest], { env: toolchainEnv() })
    const summary = run(join(toolchainBin, "node"), [join(root, "tooling", "scripts", "test-summary.mjs")], {
      env: toolchainEnv()
    })
    process.exit(status !== 0 ? status : summary)
    break
  }
  case "exec": {
    if (rest.length === 0) fail("usage: bootstrap.mjs exec <command> [args…]")
    ensureToolchain()
    process.exit(run(rest[0], rest.slice(1), { env: toolchainEnv() }))
    break
  }
  default:
    fail(`unknown command ${JSON.stringify(command)}; expected quickstart, test or exec`)
}
