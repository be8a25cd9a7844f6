import { runInNewContext } from "node:vm"
import { runBench } from "@armory/bench"
import { execute, type ToolTree } from "@armory/codemode"
import { Schema } from "effect"
import ivm from "isolated-vm"

const tools: ToolTree = {
  t: { echo: { description: "Returns its input.", input: Schema.Unknown, run: async (value: unknown) => value } }
}

const PARALLEL = "return (await Promise.all(Array.from({ length: 100 }, (_, i) => t.echo(i)))).length"

/** A fresh isolated-vm isolate per run, as a fresh QuickJS runtime is ours. */
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

const trivial = await runBench({
  name: "codemode",
  anchor: "isolated-vm 7 (a fresh V8 isolate per execution)",
  timeMs: 3000,
  cases: [
    {
      name: "trivial script, fresh sandbox per execution",
      ours: () => execute("return 1 + 1", { tools: {} }),
      anchor: () => freshIsolate((context) => context.evalSync("1 + 1")),
      target: { medianMs: 1 }
    },
    {
      name: "one tool round trip (anchor: one host Callback)",
      ours: () => execute("return await t.echo(1)", { tools, globals: ["t"] }),
      anchor: () => withHostFunction("echo(1)")
    },
    {
      name: "100 parallel tool calls (anchor: 100 host Callback calls)",
      ours: () => execute(PARALLEL, { tools, globals: ["t"] }),
      anchor: () => withHostFunction("let n = 0; for (let i = 0; i < 100; i++) n += echo(i) === i ? 1 : 0; n")
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
      ours: () => execute("return 1 + 1", { tools: {} }),
      anchor: () => runInNewContext("1 + 1")
    }
  ]
})

const median = (values: ReadonlyArray<number>) => {
  const sorted = values.toSorted((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}
const [baseline, oneCall, hundred] = trivial.cases.map((row) => row.ours.medianMs)
const format = (ms: number) => `${ms.toFixed(3)} ms`

/** How long past its deadline a spinning guest is stopped, measured from the caller's side. */
const overshoot = async (run: (deadlineMs: number) => Promise<unknown> | unknown) => {
  const samples: Array<number> = []
  for (let index = 0; index < 10; index++) {
    const started = performance.now()
    await run(100)
    samples.push(performance.now() - started - 100)
  }
  return median(samples)
}
const oursOvershoot = await overshoot((timeoutMs) => execute("while (true) {}", { tools: {}, timeoutMs }))
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

/** Resident memory added per execution held open at once (each waits on a tool call). */
const memoryPerExecution = async (count: number) => {
  const releases: Array<() => void> = []
  const holding: ToolTree = {
    h: {
      hold: {
        description: "Waits until released.",
        input: Schema.Void,
        run: () => new Promise<null>((resolve) => releases.push(() => resolve(null)))
      }
    }
  }
  await execute("return 1", { tools: {} })
  const before = process.memoryUsage().rss
  const running = Array.from({ length: count }, () => execute("const big = new Array(1000).fill('x'); await h.hold(); return big.length", { tools: holding, globals: ["h"] }))
  while (releases.length < count) await new Promise((resolve) => setTimeout(resolve, 10))
  const during = process.memoryUsage().rss
  for (const release of releases) release()
  await Promise.all(running)
  return (during - before) / count
}
const perExecution = await memoryPerExecution(8)

/**
 * A trivial execution started a few milliseconds after the previous one ended, as between a model's
 * turns, rather than back to back as in the table above.
 */
const spacedLatency = async (run: () => Promise<unknown> | unknown) => {
  const samples: Array<number> = []
  for (let index = 0; index < 100; index++) {
    await new Promise((resolve) => setTimeout(resolve, 5))
    const started = performance.now()
    await run()
    samples.push(performance.now() - started)
  }
  return median(samples)
}
const oursSpaced = await spacedLatency(() => execute("return 1 + 1", { tools: {} }))
const anchorSpaced = await spacedLatency(() => freshIsolate((context) => context.evalSync("1 + 1")))

console.log(
  [
    "",
    "codemode: figures outside the ours-vs-anchor shape",
    `  one tool round trip overhead (one-call median − trivial median): ${format((oneCall ?? 0) - (baseline ?? 0))}  target ≤ 0.25 ms`,
    `  100 parallel tool calls overhead (100-call median − trivial median): ${format((hundred ?? 0) - (baseline ?? 0))}  target ≤ 5 ms`,
    `  deadline overshoot, while (true) with a 100 ms limit (median of 10): ours ${format(oursOvershoot)}, isolated-vm ${format(anchorOvershoot)}  target ≤ 20 ms`,
    `  resident memory per concurrent execution (8 held open, worker thread included): ${(perExecution / 1024 / 1024).toFixed(1)} MiB`,
    `  trivial script 5 ms after the previous one ended (median of 100): ours ${format(oursSpaced)}, isolated-vm ${format(anchorSpaced)}`
  ].join("\n")
)
