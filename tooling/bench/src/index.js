import { existsSync, mkdirSync, writeFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { Bench } from "tinybench"

const findWorkspaceRoot = (start) => {
  let dir = resolve(start)
  while (!existsSync(join(dir, "pnpm-workspace.yaml"))) {
    const parent = dirname(dir)
    if (parent === dir) return resolve(start)
    dir = parent
  }
  return dir
}

const measure = (task) => {
  const result = task.result
  if (result.state !== "completed") {
    throw new Error(`benchmark task "${task.name}" ended ${result.state}${"error" in result ? `: ${result.error.message}` : ""}`)
  }
  return {
    medianMs: result.latency.p50,
    meanMs: result.latency.mean,
    p99Ms: result.latency.p99,
    opsPerSecond: result.throughput.mean,
    samples: result.latency.samplesCount
  }
}

const formatMs = (ms) => (ms >= 1 ? `${ms.toFixed(2)} ms` : `${(ms * 1000).toFixed(2)} µs`)

const describeTarget = (target) =>
  [
    target.medianMs === undefined ? undefined : `≤ ${formatMs(target.medianMs)}`,
    target.ratio === undefined ? undefined : `≥ ${Number(target.ratio.toFixed(3))}×`
  ]
    .filter((part) => part !== undefined)
    .join(", ")

const targetMet = (target, ours, ratio) =>
  (target.medianMs === undefined || ours.medianMs <= target.medianMs) && (target.ratio === undefined || ratio >= target.ratio)

const formatTable = (rows) => {
  const header = ["case", "ours (median)", "anchor (median)", "ratio", "target"]
  const lines = rows.map((row) => [
    row.case,
    formatMs(row.ours.medianMs),
    formatMs(row.anchor.medianMs),
    `${row.ratio.toFixed(2)}×`,
    row.target === undefined ? "-" : `${describeTarget(row.target)}: ${row.targetMet ? "met" : "MISSED"}`
  ])
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column].length)))
  return [header, ...lines].map((line) => line.map((cell, column) => cell.padEnd(widths[column])).join("  ")).join("\n")
}

/**
 * Runs every case's `ours` and `anchor` in the same process, one after the other, prints a table
 * (ratio = anchor median latency / ours median latency, so above 1 means ours is faster) and writes
 * `bench-results/<suite>.json` at the workspace root.
 */
export const runBench = async (suite) => {
  const rows = []
  for (const benchCase of suite.cases) {
    const bench = new Bench({ time: suite.timeMs ?? 1000, warmupTime: suite.warmupMs ?? 200 })
    bench.add("ours", benchCase.ours).add("anchor", benchCase.anchor)
    await bench.run()
    const [ours, anchor] = bench.tasks.map(measure)
    const ratio = anchor.medianMs / ours.medianMs
    rows.push(
      benchCase.target === undefined
        ? { case: benchCase.name, ours, anchor, ratio }
        : { case: benchCase.name, ours, anchor, ratio, target: benchCase.target, targetMet: targetMet(benchCase.target, ours, ratio) }
    )
  }
  const report = {
    suite: suite.name,
    anchor: suite.anchor,
    ratio: "anchor median latency / ours median latency (above 1: ours is faster)",
    node: process.version,
    date: new Date().toISOString(),
    cases: rows
  }
  const outputDir = suite.outputDir ?? join(findWorkspaceRoot(process.cwd()), "bench-results")
  mkdirSync(outputDir, { recursive: true })
  const outputFile = join(outputDir, `${suite.name}.json`)
  writeFileSync(outputFile, `${JSON.stringify(report, null, 2)}\n`)
  process.stdout.write(`${suite.name}: ours vs. ${suite.anchor}\n${formatTable(rows)}\nwrote ${outputFile}\n`)
  return { ...report, outputFile }
}
