export interface BenchCase {
  /** What this case measures, e.g. "100 skills, 2 KiB prompt". */
  readonly name: string
  /** Armory's implementation of the case. */
  readonly ours: () => unknown
  /** The anchor's implementation of the same work. */
  readonly anchor: () => unknown
  /** What ours should reach; reported as met or missed, never asserted. */
  readonly target?: Target
}

export interface Target {
  /** Ours' median latency at most this many milliseconds. */
  readonly medianMs?: number
  /** The ratio (anchor median / ours median) at least this. */
  readonly ratio?: number
}

export interface BenchSuite {
  /** Names the JSON file: `bench-results/<name>.json`. */
  readonly name: string
  /** What "anchor" is in this suite, e.g. "picomatch 4". */
  readonly anchor: string
  readonly cases: ReadonlyArray<BenchCase>
  readonly timeMs?: number
  readonly warmupMs?: number
  readonly outputDir?: string
}

export interface Measurement {
  readonly medianMs: number
  readonly meanMs: number
  readonly p99Ms: number
  readonly opsPerSecond: number
  readonly samples: number
}

export interface BenchRow {
  readonly case: string
  readonly ours: Measurement
  readonly anchor: Measurement
  /** anchor median latency / ours median latency: above 1 means ours is faster. */
  readonly ratio: number
  readonly target?: Target
  readonly targetMet?: boolean
}

export interface BenchReport {
  readonly suite: string
  readonly anchor: string
  readonly ratio: string
  readonly node: string
  readonly date: string
  readonly cases: ReadonlyArray<BenchRow>
  readonly outputFile: string
}

export declare const runBench: (suite: BenchSuite) => Promise<BenchReport>
