// `pnpm bench` (last): what importing each published package's main entry costs, in a fresh Node
// process per measurement — milliseconds to `import()` it, modules loaded, and whether it loaded
// WebAssembly or the Effect runtime or started a worker — beside a baseline measured the same way in
// the same run: `openapi-fetch` for `@armory/client`, bare `effect` for the rest. Prints a table and
// writes bench-results/import-weight.json. Needs a build (`pnpm build`) first.
import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"

const RUNS = Number(process.env.ARMORY_BENCH_IMPORT_RUNS ?? 7)
const workspace = join(import.meta.dirname, "..", "..")

// A consumer's import, timed on its own: finding, loading and evaluating the package.
const timing = `
const started = performance.now()
await import(process.argv[1])
process.stdout.write(JSON.stringify({ ms: performance.now() - started }))
`

// The same import, in a process that counts every module loaded and notes WebAssembly compiled and
// workers started (the counting hooks slow each load, so this run is not timed).
const census = `
import { registerHooks } from "node:module"
const loaded = []
registerHooks({ load(url, context, next) { loaded.push(url); return next(url, context) } })
let wasm = 0
for (const name of ["compile", "instantiate", "compileStreaming", "instantiateStreaming"]) {
  const original = WebAssembly[name]
  WebAssembly[name] = (...args) => { wasm++; return original.apply(WebAssembly, args) }
}
const OriginalModule = WebAssembly.Module
WebAssembly.Module = function (...args) { wasm++; return new OriginalModule(...args) }
await import(process.argv[1])
const workers = process.getActiveResourcesInfo().filter((resource) => /Worker|MessagePort/.test(resource)).length
process.stdout.write(JSON.stringify({ modules: loaded.length, wasm: wasm > 0, effect: loaded.some((url) => /\\/effect\\/dist\\//.test(url)), workers }))
`

const child = (consumer, script, specifier) =>
  JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", script, specifier], { cwd: consumer, encoding: "utf8" }))

/** The median time of `RUNS` fresh processes, with what a census process saw loaded. */
const measure = (consumer, specifier) => {
  const times = Array.from({ length: RUNS }, () => child(consumer, timing, specifier).ms).toSorted((a, b) => a - b)
  return { ms: Number(times[Math.floor(times.length / 2)].toFixed(2)), ...child(consumer, census, specifier) }
}

const packagesDir = join(workspace, "packages")
const published = readdirSync(packagesDir)
  .map((name) => join(packagesDir, name))
  .filter((directory) => existsSync(join(directory, "package.json")))
  .map((directory) => ({ directory, manifest: JSON.parse(readFileSync(join(directory, "package.json"), "utf8")) }))
  .filter(({ manifest }) => manifest.private !== true)

// A consumer project: every published package and both baselines installed by name, as links.
const consumer = mkdtempSync(join(tmpdir(), "armory-import-weight-"))
const link = (name, target) => {
  mkdirSync(dirname(join(consumer, "node_modules", name)), { recursive: true })
  symlinkSync(target, join(consumer, "node_modules", name))
}
for (const { directory, manifest } of published) link(manifest.name, directory)
link("effect", realpathSync(join(packagesDir, "api", "node_modules", "effect")))
link("openapi-fetch", realpathSync(join(packagesDir, "client", "node_modules", "openapi-fetch")))
writeFileSync(join(consumer, "package.json"), JSON.stringify({ name: "import-weight-consumer", private: true, type: "module" }))

const rows = published.map(({ manifest }) => {
  const baseline = manifest.name === "@armory/client" ? "openapi-fetch" : "effect"
  const ours = measure(consumer, manifest.name)
  const anchor = measure(consumer, baseline)
  const ratio = Number((ours.ms / anchor.ms).toFixed(2))
  const clean = !ours.wasm && ours.workers === 0
  const targetMet = manifest.name === "@armory/client" ? clean && !ours.effect && ratio <= 1.5 : clean
  return {
    package: manifest.name,
    ours,
    baseline,
    anchor,
    ratio,
    target: manifest.name === "@armory/client" ? "<= 1.5x openapi-fetch, no WASM, no Effect, no worker" : "no WASM, no worker",
    targetMet
  }
})

rmSync(consumer, { recursive: true, force: true })

const report = { suite: "import-weight", anchor: "openapi-fetch for the client, bare effect for the rest", ratio: "ours ms / baseline ms", node: process.version, date: new Date().toISOString(), runs: RUNS, cases: rows }
const outputDir = join(import.meta.dirname, "bench-results")
mkdirSync(outputDir, { recursive: true })
writeFileSync(join(outputDir, "import-weight.json"), `${JSON.stringify(report, null, 2)}\n`)
for (const row of rows) {
  process.stdout.write(
    `${row.package.padEnd(26)} ${String(row.ours.ms).padStart(7)} ms ${String(row.ours.modules).padStart(4)} modules  ` +
      `${row.baseline.padEnd(13)} ${String(row.anchor.ms).padStart(7)} ms ${String(row.anchor.modules).padStart(4)} modules  ` +
      `ratio ${String(row.ratio).padStart(5)}  wasm ${row.ours.wasm ? "yes" : "no"}  effect ${row.ours.effect ? "yes" : "no"}  workers ${row.ours.workers}  ${row.targetMet ? "met" : "missed"} (${row.target})\n`
  )
}
