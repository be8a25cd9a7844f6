import { type Armed, arm, type ArmingIndex, compileSkills, compileSuggestions, type FileEdit, type Suggestion, type SuggestionIndex, suggest } from "@armory/skill-arming"
import { load, type LoadReport, type SkillSource } from "@armory/skill-loader"

export type { LoadReport, SkillInfo, SkillSource } from "@armory/skill-loader"
import { Deferred, Duration, Effect, Fiber, FileSystem, Logger, Path, Schedule, type Scope, Stream, SubscriptionRef } from "effect"

/** What arming is asked about: a prompt, and optionally the page URL, the files in play and what edits changed. */
export interface ArmRequest {
  readonly prompt: string
  readonly url?: string | undefined
  readonly paths?: ReadonlyArray<string> | undefined
  readonly edits?: ReadonlyArray<FileEdit> | undefined
}

/** What suggestions are asked about: a prompt, and how many at most. */
export interface SuggestRequest {
  readonly prompt: string
  readonly limit?: number | undefined
}

/** One load of the catalog's roots, with the arming and suggestion indexes compiled from its skills. */
export interface CatalogSnapshot {
  readonly report: LoadReport
  readonly index: ArmingIndex
  readonly suggestions: SuggestionIndex
}

export interface SkillCatalogShape {
  /** The latest load of the roots. */
  readonly report: Effect.Effect<LoadReport>
  /** The skills that arm for a request, in load order, against the latest load. */
  readonly arm: (request: ArmRequest) => Effect.Effect<ReadonlyArray<Armed>>
  /** The loaded skills a prompt is most about, by lexical relevance; arms nothing. */
  readonly suggest: (request: SuggestRequest) => Effect.Effect<ReadonlyArray<Suggestion>>
  /** Every load from now on, starting with the current one (a host announces changed skills from it). */
  readonly changes: Stream.Stream<LoadReport>
}

export interface SkillCatalogOptions {
  /** How long the roots must be quiet after a change before they are loaded again (default 100 ms). */
  readonly settle?: Duration.Input | undefined
  /** How often a root that is not there yet is looked for (default 1 s). */
  readonly recheck?: Duration.Input | undefined
  /** `false` for a one-shot command: load once and never watch (default `true`). */
  readonly watch?: boolean | undefined
}

/** The path a source names, whether it is given bare or with `optional`. */
const sourcePath = (source: SkillSource): string => (typeof source === "string" ? source : source.path)

/** What a load's warning is about: everything dropped, ignored, shadowed or risky. */
const problemsOf = (report: LoadReport): string =>
  JSON.stringify([report.dropped, report.ignoredAutoInject, report.shadowed, report.warnings])

/**
 * A load whose warning is passed on only when its problems differ from the last load's: a host
 * reloads on every change under its roots, and a bad document it already reported is not news.
 */
const loadQuietly = (sources: ReadonlyArray<SkillSource>, last: { problems: string | undefined }) =>
  Effect.gen(function* () {
    const warnings: Array<string> = []
    const capture = Logger.make(({ logLevel, message }) => {
      if (logLevel === "Warn") warnings.push((Array.isArray(message) ? message : [message]).map(String).join(" "))
    })
    const report = yield* load(sources).pipe(Effect.provide(Logger.layer([capture])))
    const problems = problemsOf(report)
    if (problems !== last.problems) for (const warning of warnings) yield* Effect.logWarning(warning)
    last.problems = problems
    return { report, index: compileSkills(report.skills), suggestions: compileSuggestions(report.skills) } satisfies CatalogSnapshot
  })

/**
 * The skills of a host: its roots loaded once, then again whenever something under them changes
 * (each existing root is watched; one that is missing is looked for every `recheck`), so a request
 * reads the loaded catalog instead of the disk. The watchers stop when the scope closes.
 */
export const makeSkillCatalog = Effect.fn("makeSkillCatalog")(function* (
  sources: ReadonlyArray<SkillSource>,
  options: SkillCatalogOptions = {}
): Effect.fn.Return<SkillCatalogShape, never, FileSystem.FileSystem | Path.Path | Scope.Scope> {
  const fs = yield* FileSystem.FileSystem
  const path = yield* Path.Path
  const lastWarning: { problems: string | undefined } = { problems: undefined }
  const watch = options.watch !== false
  // The watchers are installed before the first load, so no change is lost between the two; one
  // that comes in before the catalog exists is loaded as soon as it does.
  let catalog: SubscriptionRef.SubscriptionRef<CatalogSnapshot> | undefined
  let missedChange = false
  const reload = Effect.suspend(() => {
    if (catalog === undefined) {
      missedChange = true
      return Effect.void
    }
    const ref = catalog
    return Effect.flatMap(loadQuietly(sources, lastWarning), (next) => SubscriptionRef.set(ref, next))
  })
  const roots = sources.map((source) => path.resolve(sourcePath(source)))
  const present = (root: string) => fs.exists(root).pipe(Effect.orElseSucceed(() => false))

  // One watcher per root that exists, ready before this returns. When a root appears or
  // disappears, or a watcher ends (its root was removed or replaced), the roots are watched afresh
  // and loaded again, since a change may have gone unseen meanwhile.
  const watchAll = Effect.gen(function* () {
    const existing = yield* Effect.filter(roots, present)
    const ready = yield* Effect.forEach(existing, () => Deferred.make<void>())
    const events = Stream.mergeAll(
      existing.map((root, index) =>
        fs
          .watch(root, { recursive: true, onReady: () => Deferred.doneUnsafe(ready[index] as Deferred.Deferred<void>, Effect.void) })
          .pipe(Stream.catch(() => Stream.fromEffect(Deferred.succeed(ready[index] as Deferred.Deferred<void>, undefined)).pipe(Stream.drain)))
      ),
      { concurrency: "unbounded" }
    )
    const fiber = yield* events.pipe(Stream.debounce(options.settle ?? Duration.millis(100)), Stream.runForEach(() => reload), Effect.forkScoped)
    yield* Effect.forEach(ready, Deferred.await, { discard: true })
    return { existing, fiber }
  })
  let watching = watch ? yield* watchAll : undefined
  const ref = yield* SubscriptionRef.make(yield* loadQuietly(sources, lastWarning))
  catalog = ref
  if (missedChange) yield* reload

  const current = SubscriptionRef.get(ref)
  const shape: SkillCatalogShape = {
    report: Effect.map(current, (snapshot) => snapshot.report),
    arm: (request) =>
      Effect.map(current, ({ index }) => arm({ skills: index, prompt: request.prompt, url: request.url, paths: request.paths, edits: request.edits })),
    suggest: (request) => Effect.map(current, ({ suggestions }) => suggest({ skills: suggestions, prompt: request.prompt, limit: request.limit })),
    changes: Stream.map(SubscriptionRef.changes(ref), (snapshot) => snapshot.report)
  }
  if (watching === undefined) return shape
  yield* Effect.gen(function* () {
    const existing = yield* Effect.filter(roots, present)
    const previous = watching?.existing ?? []
    const sameRoots = existing.length === previous.length && existing.every((root, index) => root === previous[index])
    const watcherEnded = existing.length > 0 && watching?.fiber.pollUnsafe() !== undefined
    if (sameRoots && !watcherEnded) return
    if (watching !== undefined) yield* Fiber.interrupt(watching.fiber)
    watching = yield* watchAll
    yield* reload
  }).pipe(Effect.repeat(Schedule.spaced(options.recheck ?? Duration.seconds(1))), Effect.forkScoped)

  return shape
})
