import { mkdirSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { runInNewContext } from "node:vm"
import { runBench } from "@armory/bench"
import { createSandboxPool, type ToolTree } from "@armory/codemode"
import { Schema } from "effect"
import ivm from "isolated-vm"

const MIB = 1024 * 1024
const tools: ToolTree = {
  t: { echo: { description: "Returns its input.", input: Schema.Unknown, run: async (value: unknown) => value } }
}

const PARALLEL = "return (await Promise.all(Array.from({ length: 100 }, (_, i) => t.echo(i)))).length"

/** A fresh isolated-vm isolate per run, as a fresh QuickJS instance is ours. */
const freshIsolate = <T>(use: (context: ivm.Context) => T): T => {
  const isolate = new ivm.Isolate({ memoryLimit: 64 })
  try {
    return use(isolate.createContextSync())
  } finally {
    isolate.dispose()
  }
}

const withHostFunction = (code: string) =>
  freshIsolate((context) => {
    context.global.setSync("echo", new ivm.Callback((value: unknown) => value))
    return context.evalSync(code)
  })

const pool = createSandboxPool()
const run = (code: string, options: Parameters<typeof pool.execute>[1] = { tools: {} }) => pool.execute(code, options)

const trivial = await runBench({
  name: "codemode",
  anchor: "isolated-vm 7 (a fresh V8 isolate per execution)",
  timeMs: 3000,
  cases: [
    {
      name: "trivial script, fresh instance per execution, back to back",
      ours: () => run("return 1 + 1"),
      anchor: () => freshIsolate((context) => context.evalSync("1 + 1")),
      target: { ratio: 1 }
    },
    {
      name: "one tool round trip (anchor: one host Callback)",
      ours: () => run("return await t.echo(1)", { tools, globals: ["t"] }),
      anchor: () => withHostFunction("echo(1)")
    },
    {
      name: "100 parallel tool calls (anchor: 100 host Callback calls)",
      ours: () => run(PARALLEL, { tools, globals: ["t"] }),
      anchor: () => withHostFunction("let n = 0; for (let i = 0; i < 100; i++) n += echo(i) === i ? 1 : 0; n"),
      target: { ratio: 0.8 }
    }
  ]
})

await runBench({
  name: "codemode-node-vm",
  anchor: "node:vm runInNewContext (no isolation; for scale only)",
  timeMs: 2000,
  cases: [
    {
      name: "trivial script, fresh context per execution",
      ours: () => run("return 1 + 1"),
      anchor: () => runInNewContext("1 + 1")
    }
  ]
})

const median = (values: ReadonlyArray<number>) => {
  const sorted = values.toSorted((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}
const percentile = (values: ReadonlyArray<number>, p: number) => {
  const sorted = values.toSorted((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN
}
const [baseline, oneCall, hundred] = trivial.cases.map((row) => row.ours.medianMs)
const format = (ms: number) => `${ms.toFixed(3)} ms`

/** How long past its deadline a spinning guest is stopped, measured from the caller's side. */
const overshoot = async (stop: (deadlineMs: number) => Promise<unknown> | unknown) => {
  const samples: Array<number> = []
  for (let index = 0; index < 10; index++) {
    const started = performance.now()
    await stop(100)
    samples.push(performance.now() - started - 100)
  }
  return median(samples)
}
const oursOvershoot = await overshoot((timeoutMs) => run("while (true) {}", { tools: {}, timeoutMs }))
const anchorOvershoot = await overshoot((timeout) =>
  freshIsolate((context) => {
    try {
      context.evalSync("while (true) {}", { timeout })
    } catch {
      return "stopped"
    }
    return "ran"
  })
)

/**
 * A trivial execution started a few milliseconds after the previous one ended, as between a model's
 * turns: the worker has built the next instance meanwhile.
 */
const spacedLatency = async (once: () => Promise<unknown> | unknown) => {
  const samples: Array<number> = []
  for (let index = 0; index < 100; index++) {
    await new Promise((resolve) => setTimeout(resolve, 10))
    const started = performance.now()
    await once()
    samples.push(performance.now() - started)
  }
  return median(samples)
}
const oursSpaced = await spacedLatency(() => run("return 1 + 1"))
const anchorSpaced = await spacedLatency(() => freshIsolate((context) => context.evalSync("1 + 1")))

/** `total` executions, `concurrency` in flight at once: executions per second, p99 latency, peak RSS. */
const throughput = async (total: number, concurrency: number, once: () => Promise<unknown>) => {
  const latencies: Array<number> = []
  let peak = process.memoryUsage().rss
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss)
  }, 5)
  let next = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next++
        const begun = performance.now()
        await once()
        latencies.push(performance.now() - begun)
      }
    })
  )
  const elapsed = performance.now() - started
  clearInterval(sampler)
  return { perSecond: (total / elapsed) * 1000, p99Ms: percentile(latencies, 0.99), peakRssMiB: Math.max(peak, process.memoryUsage().rss) / MIB }
}
const oursThroughput = await throughput(1_000, 32, () => run("return 1 + 1"))
const anchorThroughput = await throughput(1_000, 32, async () => {
  const isolate = new ivm.Isolate({ memoryLimit: 64 })
  try {
    const context = await isolate.createContext()
    return await context.eval("1 + 1")
  } finally {
    isolate.dispose()
  }
})

/** Resident memory at the peak of ten ArrayBuffer bombs under the default 64 MiB limit, and once idle again. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 1_000))
const bombs = async () => {
  await run("return 1")
  await settle()
  const before = process.memoryUsage().rss
  let peak = before
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss)
  }, 2)
  const bomb = "const kept = []; for (;;) kept.push(new ArrayBuffer(1 << 20))"
  const results = await Promise.all(Array.from({ length: 10 }, () => run(bomb, { tools: {}, timeoutMs: 60_000 })))
  clearInterval(sampler)
  await run("return 1")
  await settle()
  return {
    stopped: results.filter((result) => result.error?._tag === "MemoryLimitExceeded").length,
    baselineMiB: before / MIB,
    peakMiB: peak / MIB,
    idleMiB: process.memoryUsage().rss / MIB
  }
}
const memory = await bombs()
await pool.close()

// The pool runs at most availableParallelism() executions at once: that is "per concurrent execution".
const concurrent = Math.min(10, (await import("node:os")).availableParallelism())
const perExecutionPeakMiB = (memory.peakMiB - memory.baselineMiB) / concurrent
const extra = {
  oneToolRoundTripOverheadMs: (oneCall ?? 0) - (baseline ?? 0),
  hundredParallelCallsOverheadMs: (hundred ?? 0) - (baseline ?? 0),
  deadlineOvershootMs: { ours: oursOvershoot, anchor: anchorOvershoot },
  spacedTrivialMs: { ours: oursSpaced, anchor: anchorSpaced, ratio: anchorSpaced / oursSpaced },
  throughput1000At32: { ours: oursThroughput, anchor: anchorThroughput, ratio: oursThroughput.perSecond / anchorThroughput.perSecond },
  bombs: { ...memory, concurrent, perExecutionPeakMiB, perExecutionTargetMiB: 4 * (64 + 16), idleOverBaselineMiB: memory.idleMiB - memory.baselineMiB }
}
// Beside the tables' own JSON files.
const resultsDir = dirname(trivial.outputFile)
mkdirSync(resultsDir, { recursive: true })
writeFileSync(join(resultsDir, "codemode-extra.json"), `${JSON.stringify(extra, null, 2)}\n`)

const met = (ok: boolean) => (ok ? "met" : "MISSED")
console.log(
  [
    "",
    "codemode: figures outside the ours-vs-anchor table (bench-results/codemode-extra.json)",
    `  one tool round trip overhead (one-call median − trivial median): ${format(extra.oneToolRoundTripOverheadMs)}  target ≤ 0.25 ms`,
    `  100 parallel tool calls overhead (100-call median − trivial median): ${format(extra.hundredParallelCallsOverheadMs)}  target ≤ 5 ms`,
    `  deadline overshoot, while (true) with a 100 ms limit (median of 10): ours ${format(oursOvershoot)}, isolated-vm ${format(anchorOvershoot)}  target ≤ 20 ms`,
    `  trivial script 10 ms after the previous one ended (median of 100): ours ${format(oursSpaced)}, isolated-vm ${format(anchorSpaced)}, ratio ${extra.spacedTrivialMs.ratio.toFixed(2)}  target ≥ 1.00 ${met(extra.spacedTrivialMs.ratio >= 1)}`,
    `  1,000 trivial executions at concurrency 32: ours ${oursThroughput.perSecond.toFixed(0)}/s p99 ${format(oursThroughput.p99Ms)} peak RSS ${oursThroughput.peakRssMiB.toFixed(0)} MiB; ` +
      `isolated-vm ${anchorThroughput.perSecond.toFixed(0)}/s p99 ${format(anchorThroughput.p99Ms)} peak RSS ${anchorThroughput.peakRssMiB.toFixed(0)} MiB; ratio ${extra.throughput1000At32.ratio.toFixed(2)}`,
    `  ten ArrayBuffer bombs under 64 MiB: ${memory.stopped}/10 MemoryLimitExceeded; RSS baseline ${memory.baselineMiB.toFixed(0)} MiB, peak ${memory.peakMiB.toFixed(0)} MiB ` +
      `(${perExecutionPeakMiB.toFixed(0)} MiB per concurrent execution, target ≤ ${extra.bombs.perExecutionTargetMiB} ${met(perExecutionPeakMiB <= extra.bombs.perExecutionTargetMiB)}), ` +
      `idle ${memory.idleMiB.toFixed(0)} MiB (${extra.bombs.idleOverBaselineMiB.toFixed(0)} MiB over baseline, target ≤ 50 ${met(extra.bombs.idleOverBaselineMiB <= 50)})`
  ].join("\n")
)
