import { Result } from "effect"
import type {
  AddBlockerInput,
  AddCriterionInput,
  AddEvidenceInput,
  CheckpointInput,
  CompleteInput,
  ResolveBlockerInput,
  SetCriterionStatusInput,
  SetGoalStatusInput,
  SetInput,
  SteerInput
} from "./GoalInputs.js"
import {
  type DomainError,
  ForceNotAllowed,
  GateRefused,
  GoalAlreadyComplete,
  NoActiveGoal,
  ObjectiveConflict,
  SteeringRejected,
  UnknownBlocker,
  UnknownCriterion
} from "./Errors.js"
import { evaluateGate, type GoalStatusReport } from "./Gate.js"
import {
  type Blocker,
  type Checkpoint,
  type Criterion,
  type CriterionSpec,
  type CriterionStatus,
  emptyState,
  type Evidence,
  type Goal,
  type GoalState,
  type IdCounters,
  type Steering
} from "./Goal.js"
import { type EventBody, LEDGER_SCHEMA, type LedgerEvent } from "./LedgerEvent.js"
import { weakeningReason } from "./Steering.js"

/**
 * The goal rules as pure functions over events, independent of where events are stored: `decide`
 * turns a command and the current state into an event (or a refusal), `fold` rebuilds state from
 * events. A storage backend only has to append events atomically under its own lock.
 */

/**
 * What a decision needs besides the state: the time to stamp, the session (for error data), and the
 * operator who opened the store, when one did: only then may `force` change a complete goal.
 */
export interface DecideContext {
  readonly now: string
  readonly sessionId: string
  readonly operator?: string | undefined
}

/**
 * The outcome of a command. `Commit` appends `event` and answers from the state after it;
 * `Refuse` appends nothing — unless `record` is set (a refused steering directive is itself an event).
 */
export type Decision<A> =
  | { readonly _tag: "Commit"; readonly event: LedgerEvent; readonly answer: (next: GoalState) => A }
  | { readonly _tag: "Unchanged"; readonly value: A }
  | { readonly _tag: "Refuse"; readonly error: DomainError; readonly record?: LedgerEvent }

const stamp = (state: GoalState, context: DecideContext, body: EventBody): LedgerEvent =>
  ({ schema: LEDGER_SCHEMA, seq: state.seq + 1, at: context.now, ...body }) as LedgerEvent

const commit = <A>(state: GoalState, context: DecideContext, body: EventBody, answer: (next: GoalState) => A): Decision<A> => ({
  _tag: "Commit",
  event: stamp(state, context, body),
  answer
})

const refuse = <A>(error: DomainError, record?: LedgerEvent): Decision<A> =>
  record === undefined ? { _tag: "Refuse", error } : { _tag: "Refuse", error, record }

const nextId = (counters: IdCounters, series: keyof IdCounters, offset = 0): string =>
  `${series === "checkpoint" ? "k" : series[0]}${counters[series] + 1 + offset}`

const goalOf = (next: GoalState): Goal => {
  if (next.goal === null) throw new Error("a committed goal event left no goal")
  return next.goal
}

const findCriterion = (goal: Goal, criterionId: string): Criterion | undefined =>
  goal.criteria.find((criterion) => criterion.id === criterionId)

const criterionOf = (next: GoalState, criterionId: string): Criterion => {
  const criterion = findCriterion(goalOf(next), criterionId)
  if (criterion === undefined) throw new Error(`a committed event lost criterion ${criterionId}`)
  return criterion
}

const lastOf = <T>(items: ReadonlyArray<T>): T => {
  const item = items[items.length - 1]
  if (item === undefined) throw new Error("a committed event added nothing")
  return item
}

const sameSpec = (criterion: Criterion, spec: CriterionSpec) =>
  criterion.scenario === spec.scenario && criterion.qaChannel === spec.qaChannel && criterion.testRef === spec.testRef

/** What an event records of a forced change: that it was forced, and by whom. */
type ForcedFields = { readonly forced?: true; readonly forcedBy?: string }

/**
 * The goal a mutation applies to, and what its event records of `force`. A goal that is not complete
 * takes the change as it is (`force` means nothing there); a complete one changes only with `force`
 * on a store an operator opened, and the event then names the operator.
 */
const mutableGoal = (
  state: GoalState,
  context: DecideContext,
  force: boolean | undefined
): Result.Result<{ readonly goal: Goal; readonly forced: ForcedFields }, DomainError> => {
  const goal = state.goal
  if (goal === null) return Result.fail(new NoActiveGoal({ sessionId: context.sessionId }))
  if (goal.status !== "complete") return Result.succeed({ goal, forced: {} })
  if (force !== true) return Result.fail(new GoalAlreadyComplete({ goalId: goal.id }))
  if (context.operator === undefined) return Result.fail(new ForceNotAllowed({ goalId: goal.id }))
  return Result.succeed({ goal, forced: { forced: true, forcedBy: context.operator } })
}

/**
 * Sets the session's objective. A session holds one aggregate objective: the same objective again is
 * answered with the goal as it is (its criteria must already be there); a different one is refused,
 * while the goal is open as a conflict, once it is complete because the finished record stays (new
 * work goes in a new session).
 */
export const decideSet = (state: GoalState, context: DecideContext, input: SetInput): Decision<Goal> => {
  const specs = input.criteria ?? []
  const current = state.goal
  if (current !== null) {
    const sameObjective = current.objective === input.objective
    if (sameObjective && specs.every((spec) => current.criteria.some((criterion) => sameSpec(criterion, spec)))) {
      return { _tag: "Unchanged", value: current }
    }
    return refuse(
      current.status === "complete"
        ? new GoalAlreadyComplete({ goalId: current.id })
        : new ObjectiveConflict({ current: current.objective, requested: input.objective })
    )
  }
  return commit(
    state,
    context,
    {
      kind: "goal_created",
      goal: {
        id: nextId(state.counters, "goal"),
        objective: input.objective,
        criteria: specs.map((spec, index) => ({
          id: nextId(state.counters, "criterion", index),
          scenario: spec.scenario,
          qaChannel: spec.qaChannel,
          testRef: spec.testRef
        }))
      }
    },
    goalOf
  )
}

export const decideAddCriterion = (state: GoalState, context: DecideContext, input: AddCriterionInput): Decision<Criterion> =>
  Result.match(mutableGoal(state, context, input.force), {
    onFailure: (error) => refuse(error),
    onSuccess: ({ forced }) => {
      const id = nextId(state.counters, "criterion")
      return commit(
        state,
        context,
        {
          kind: "criterion_added",
          ...forced,
          criterion: { id, scenario: input.scenario, qaChannel: input.qaChannel, testRef: input.testRef }
        },
        (next) => criterionOf(next, id)
      )
    }
  })

export const decideAddEvidence = (state: GoalState, context: DecideContext, input: AddEvidenceInput): Decision<Evidence> =>
  Result.match(mutableGoal(state, context, input.force), {
    onFailure: (error) => refuse(error),
    onSuccess: ({ goal, forced }) => {
      const criterion = findCriterion(goal, input.criterionId)
      if (criterion === undefined) return refuse(new UnknownCriterion({ criterionId: input.criterionId }))
      const id = nextId(state.counters, "evidence")
      return commit(
        state,
        context,
        {
          kind: "evidence_added",
          ...forced,
          evidence: {
            id,
            criterionId: criterion.id,
            kind: input.kind,
            ref: input.ref,
            ...(input.detail === undefined ? {} : { detail: input.detail }),
            attempt: criterion.attempt
          }
        },
        (next) => lastOf(criterionOf(next, criterion.id).evidence)
      )
    }
  })

const RETRYABLE_FROM: ReadonlyArray<CriterionStatus> = ["fail", "blocked"]
const RETRY_TO: ReadonlyArray<CriterionStatus> = ["in_progress", "pending"]

/** Moving a criterion out of fail/blocked back to work starts a new attempt (`criterion_retry`). */
export const decideSetCriterionStatus = (
  state: GoalState,
  context: DecideContext,
  input: SetCriterionStatusInput
): Decision<Criterion> =>
  Result.match(mutableGoal(state, context, input.force), {
    onFailure: (error) => refuse(error),
    onSuccess: ({ goal, forced }) => {
      const criterion = findCriterion(goal, input.criterionId)
      if (criterion === undefined) return refuse(new UnknownCriterion({ criterionId: input.criterionId }))
      const answer = (next: GoalState) => criterionOf(next, criterion.id)
      return RETRYABLE_FROM.includes(criterion.status) && RETRY_TO.includes(input.status)
        ? commit(
            state,
            context,
            {
              kind: "criterion_retry",
              ...forced,
              criterionId: criterion.id,
              status: input.status,
              attempt: criterion.attempt + 1
            },
            answer
          )
        : commit(
            state,
            context,
            { kind: "criterion_status", ...forced, criterionId: criterion.id, status: input.status },
            answer
          )
    }
  })

/**
 * What a refused steer's ledger line says: the refusal's own words, except that it names no session
 * (a ledger replays into another one).
 */
const rejectionReason = (error: DomainError): string => {
  if (error._tag === "SteeringRejected") return error.reason
  if (error._tag === "NoActiveGoal") return "there is no goal to steer; set an objective first"
  return error.message
}

/** Why the steering rules refuse a directive on a goal that may take it, or `undefined` when they accept it. */
const steeringRefusal = (input: SteerInput): string | undefined => {
  if (input.directive.trim() === "") return "steering needs a directive"
  if (input.evidence.trim() === "") {
    return "steering needs evidence: a directive with none is an unattributable change of course; cite what you observed"
  }
  if (input.rationale.trim() === "") return "steering needs a rationale: say why what you observed changes the plan"
  if (input.kind === "add_criterion" && input.criterion === undefined) return "an add_criterion directive needs the criterion to add"
  if (input.kind !== "add_criterion" && input.criterion !== undefined) {
    return `only add_criterion changes structure; a ${input.kind} directive carries no criterion`
  }
  const weakening = weakeningReason(input.directive)
  return weakening === undefined ? undefined : `the directive weakens completion: ${weakening}`
}

/**
 * Steering needs a directive, evidence and a rationale; only `add_criterion` changes structure, and
 * only by adding a criterion; a directive that would weaken completion is refused. Every refusal —
 * these, and a steer the goal cannot take (none yet, or complete) — is recorded as `steering_rejected`.
 */
export const decideSteer = (state: GoalState, context: DecideContext, input: SteerInput): Decision<Steering> => {
  const rejected = (error: DomainError, forced: ForcedFields = {}): Decision<Steering> =>
    refuse(
      error,
      stamp(state, context, {
        kind: "steering_rejected",
        ...forced,
        directive: input.directive,
        steeringKind: input.kind,
        evidence: input.evidence,
        rationale: input.rationale,
        ...(input.criterion === undefined ? {} : { criterion: input.criterion }),
        reason: rejectionReason(error)
      })
    )
  return Result.match(mutableGoal(state, context, input.force), {
    onFailure: (error) => rejected(error),
    onSuccess: ({ forced }) => {
      const refusal = steeringRefusal(input)
      if (refusal !== undefined) return rejected(new SteeringRejected({ reason: refusal, recorded: true }), forced)
      const id = nextId(state.counters, "steering")
      const criterionId = input.criterion === undefined ? undefined : nextId(state.counters, "criterion")
      return commit(
        state,
        context,
        {
          kind: "steer",
          ...forced,
          steering: {
            id,
            kind: input.kind,
            directive: input.directive,
            evidence: input.evidence,
            rationale: input.rationale,
            ...(criterionId === undefined ? {} : { criterionId })
          },
          ...(input.criterion === undefined || criterionId === undefined
            ? {}
            : {
                criterion: {
                  id: criterionId,
                  scenario: input.criterion.scenario,
                  qaChannel: input.criterion.qaChannel,
                  testRef: input.criterion.testRef
                }
              })
        },
        (next) => lastOf(goalOf(next).steering)
      )
    }
  })
}

export const decideCheckpoint = (state: GoalState, context: DecideContext, input: CheckpointInput): Decision<Checkpoint> =>
  Result.match(mutableGoal(state, context, input.force), {
    onFailure: (error) => refuse(error),
    onSuccess: ({ goal, forced }) => {
      const active = input.activeCriterion
      if (active !== undefined && findCriterion(goal, active) === undefined) {
        return refuse(new UnknownCriterion({ criterionId: active }))
      }
      return commit(
        state,
        context,
        {
          kind: "checkpoint",
          ...forced,
          checkpoint: {
            id: nextId(state.counters, "checkpoint"),
            summary: input.summary,
            ...(active === undefined ? {} : { activeCriterion: active })
          }
        },
        (next) => lastOf(goalOf(next).checkpoints)
      )
    }
  })

export const decideAddBlocker = (state: GoalState, context: DecideContext, input: AddBlockerInput): Decision<Blocker> =>
  Result.match(mutableGoal(state, context, input.force), {
    onFailure: (error) => refuse(error),
    onSuccess: ({ forced }) =>
      commit(
        state,
        context,
        { kind: "review_blocker", ...forced, blocker: { id: nextId(state.counters, "blocker"), detail: input.detail } },
        (next) => lastOf(goalOf(next).reviewBlockers)
      )
  })

/** Resolving a blocker that is already resolved answers it as it is and records nothing. */
export const decideResolveBlocker = (state: GoalState, context: DecideContext, input: ResolveBlockerInput): Decision<Blocker> =>
  Result.match(mutableGoal(state, context, input.force), {
    onFailure: (error) => refuse(error),
    onSuccess: ({ goal, forced }) => {
      const blocker = goal.reviewBlockers.find((entry) => entry.id === input.blockerId)
      if (blocker === undefined) return refuse(new UnknownBlocker({ blockerId: input.blockerId }))
      if (blocker.status === "resolved") return { _tag: "Unchanged", value: blocker }
      return commit(
        state,
        context,
        { kind: "review_blocker_resolved", ...forced, blockerId: blocker.id },
        (next) => {
          const resolved = goalOf(next).reviewBlockers.find((entry) => entry.id === blocker.id)
          if (resolved === undefined) throw new Error(`a committed event lost blocker ${blocker.id}`)
          return resolved
        }
      )
    }
  })

/**
 * Sets the goal status by hand: the only way to `needs_user_decision`. While a review blocker is open
 * any status but `blocked` reads as `review_blocked` (see `settledStatus`).
 */
export const decideSetGoalStatus = (state: GoalState, context: DecideContext, input: SetGoalStatusInput): Decision<Goal> =>
  Result.match(mutableGoal(state, context, input.force), {
    onFailure: (error) => refuse(error),
    onSuccess: ({ forced }) => commit(state, context, { kind: "goal_status", ...forced, status: input.status }, goalOf)
  })

/**
 * Completes the goal when the gate passes — nothing else opens it. A complete goal is not completed
 * again, except by an operator with `force` (after deliberately changing it), and then the gate must
 * pass as well.
 */
export const decideComplete = (state: GoalState, context: DecideContext, input: CompleteInput): Decision<Goal> =>
  Result.match(mutableGoal(state, context, input.force), {
    onFailure: (error) => refuse(error),
    onSuccess: ({ goal, forced }) => {
      const gate = evaluateGate(goal)
      if (!gate.passed) return refuse(new GateRefused({ unmet: gate.unmet }))
      return commit(state, context, { kind: "goal_completed", ...forced, unmet: [] }, goalOf)
    }
  })

export const statusOf = (state: GoalState): GoalStatusReport => ({
  goal: state.goal,
  gate:
    state.goal === null
      ? { passed: false, unmet: [{ kind: "goal", status: "active", reason: "no goal has been set" }] }
      : evaluateGate(state.goal)
})

/** Why an event could not be applied: the ledger is internally inconsistent at that sequence. */
export interface FoldFailure {
  readonly seq: number
  readonly reason: string
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] }

type DraftGoal = Mutable<Goal>

/**
 * The ids a state holds, by series, for the series asked about so far. It describes exactly one state
 * at a time: a fold from that state takes it over and leaves it describing the state it folds to, so
 * a fold of one event (every write) checks its ids without scanning the goal's history again.
 */
interface IdIndex {
  describes: GoalState | undefined
  readonly series: Map<IdSeries, Set<string>>
}

const idIndexes = new WeakMap<GoalState, IdIndex>()

/** The index of `state` when it still describes it (no other fold took it over), else a new one. */
const idIndexOf = (state: GoalState): IdIndex => {
  const index = idIndexes.get(state)
  return index !== undefined && index.describes === state ? index : { describes: undefined, series: new Map() }
}

/**
 * A state being folded. The records it starts from are shared with the state it was made from, which
 * must not change; an array or criterion is copied the first time this fold changes it (`owned`) and
 * changed in place after that, so one event costs a copy of the one list it touches, and a long fold
 * copies each list once. `owned` may also hold what the caller's earlier folds made (see `fold`).
 */
interface Draft {
  seq: number
  counters: { -readonly [K in keyof IdCounters]: number }
  goal: DraftGoal | null
  /** The ids of the series asked about, kept up to date as events apply (see `holdsId`). */
  readonly ids: Map<IdSeries, Set<string>>
  readonly owned: WeakSet<object>
}

const toDraft = (state: GoalState, ids: Map<IdSeries, Set<string>>, owned: WeakSet<object>): Draft => ({
  seq: state.seq,
  counters: { ...state.counters },
  ids,
  owned,
  goal: state.goal === null ? null : { ...state.goal }
})

/** `list` as an array this fold may change: itself once owned, else a copy that is owned from now on. */
const ownedList = <T>(draft: Draft, list: ReadonlyArray<T>): Array<T> => {
  if (draft.owned.has(list)) return list as Array<T>
  const copy = list.slice()
  draft.owned.add(copy)
  return copy
}

/** `list` with `item` at its end; the first time, one exact-size copy (a copy then grown by a push is copied twice). */
const appended = <T>(draft: Draft, list: ReadonlyArray<T>, item: T): ReadonlyArray<T> => {
  if (draft.owned.has(list)) {
    ;(list as Array<T>).push(item)
    return list
  }
  const copy = list.concat([item])
  draft.owned.add(copy)
  return copy
}

/** Replaces the criterion at `index` with what `change` makes of it. */
const changeCriterion = (draft: Draft, goal: DraftGoal, index: number, change: (criterion: Mutable<Criterion>) => void): void => {
  const criteria = ownedList(draft, goal.criteria)
  const current = criteria[index]
  if (current === undefined) return
  const criterion: Mutable<Criterion> = draft.owned.has(current) ? current : { ...current }
  draft.owned.add(criterion)
  change(criterion)
  criteria[index] = criterion
  goal.criteria = criteria
}

const hasOpenBlocker = (goal: Pick<Goal, "reviewBlockers">) => goal.reviewBlockers.some((blocker) => blocker.status === "open")

/**
 * The status the blockers imply: an open review blocker outranks every status but `complete` and a
 * hand-set `blocked`, so the goal reads `review_blocked` (and stays stalled) until the last one is
 * resolved, when a goal held there by blockers returns to `active`.
 */
const settledStatus = (goal: Pick<Goal, "status" | "reviewBlockers">, lastResolved: boolean): Goal["status"] => {
  if (goal.status === "complete" || goal.status === "blocked") return goal.status
  if (hasOpenBlocker(goal)) return "review_blocked"
  return goal.status === "review_blocked" && lastResolved ? "active" : goal.status
}

const newCriterion = (spec: { id: string; scenario: string; qaChannel: Criterion["qaChannel"]; testRef: string }): Criterion => ({
  id: spec.id,
  scenario: spec.scenario,
  qaChannel: spec.qaChannel,
  testRef: spec.testRef,
  status: "pending",
  attempt: 1,
  evidence: []
})

type IdSeries = "criterion" | "evidence" | "checkpoint" | "steering" | "blocker"

/** The ids of the records an event introduces, by series. */
const introducedIds = (event: LedgerEvent): ReadonlyArray<readonly [IdSeries, string]> => {
  switch (event.kind) {
    case "goal_created":
      return event.goal.criteria.map((criterion) => ["criterion", criterion.id] as const)
    case "criterion_added":
      return [["criterion", event.criterion.id]]
    case "evidence_added":
      return [["evidence", event.evidence.id]]
    case "checkpoint":
      return [["checkpoint", event.checkpoint.id]]
    case "steer":
      return [["steering", event.steering.id], ...(event.criterion === undefined ? [] : [["criterion", event.criterion.id] as const])]
    case "review_blocker":
      return [["blocker", event.blocker.id]]
    default:
      return []
  }
}

const heldIds = (goal: DraftGoal | null, series: IdSeries): Array<string> => {
  if (goal === null) return []
  switch (series) {
    case "criterion":
      return goal.criteria.map((criterion) => criterion.id)
    case "evidence":
      return goal.criteria.flatMap((criterion) => criterion.evidence.map((entry) => entry.id))
    case "checkpoint":
      return goal.checkpoints.map((checkpoint) => checkpoint.id)
    case "steering":
      return goal.steering.map((steering) => steering.id)
    case "blocker":
      return goal.reviewBlockers.map((blocker) => blocker.id)
  }
}

/** Whether the goal already holds `id` in `series`; the first question about a series indexes its records. */
const holdsId = (draft: Draft, series: IdSeries, id: string): boolean => {
  const index = draft.ids.get(series)
  if (index !== undefined) return index.has(id)
  const built = new Set(heldIds(draft.goal, series))
  draft.ids.set(series, built)
  return built.has(id)
}

/**
 * Answers why an event cannot apply when it introduces an id the goal already holds (or the same id
 * twice). The domain never allocates an id twice, so such a ledger was edited; folding it would leave
 * two records under one id (a blocker that can never be resolved, say).
 */
const duplicateId = (draft: Draft, event: LedgerEvent): string | undefined => {
  const introduced = introducedIds(event)
  for (const [position, [series, id]] of introduced.entries()) {
    const repeated = introduced.findIndex(([other, otherId]) => other === series && otherId === id) !== position
    if (repeated || holdsId(draft, series, id)) return `duplicate ${series === "blocker" ? "review blocker" : series} id ${id}`
  }
  for (const [series, id] of introduced) draft.ids.get(series)?.add(id)
  return undefined
}

/** Applies one event to the draft in place; answers the reason when the event does not fit the state. */
const applyToDraft = (draft: Draft, event: LedgerEvent): string | undefined => {
  if (event.seq !== draft.seq + 1) return `sequence ${event.seq} follows ${draft.seq}`
  if (event.kind === "goal_created") {
    if (draft.goal !== null && draft.goal.status !== "complete") return "a goal was created while another is open"
    if (draft.goal?.id === event.goal.id) return `duplicate goal id ${event.goal.id}`
    draft.goal = null
    draft.ids.clear()
    const duplicate = duplicateId(draft, event)
    if (duplicate !== undefined) return duplicate
    draft.goal = {
      id: event.goal.id,
      objective: event.goal.objective,
      status: "active",
      criteria: event.goal.criteria.map(newCriterion),
      checkpoints: [],
      steering: [],
      reviewBlockers: [],
      createdAt: event.at,
      updatedAt: event.at
    }
    draft.counters.goal += 1
    draft.counters.criterion += event.goal.criteria.length
    draft.seq = event.seq
    return undefined
  }
  if (event.kind === "steering_rejected") {
    // A refused directive is audited in the ledger and leaves the aggregate as it was, with or without a goal.
    draft.seq = event.seq
    return undefined
  }
  const goal = draft.goal
  if (goal === null) return `${event.kind} before any goal was created`
  const criterionIndex = (id: string) => goal.criteria.findIndex((criterion) => criterion.id === id)
  const duplicate = duplicateId(draft, event)
  if (duplicate !== undefined) return duplicate
  switch (event.kind) {
    case "criterion_added": {
      goal.criteria = appended(draft, goal.criteria, newCriterion(event.criterion))
      draft.counters.criterion += 1
      break
    }
    case "criterion_status":
    case "criterion_retry": {
      const index = criterionIndex(event.criterionId)
      if (index < 0) return `unknown criterion ${event.criterionId}`
      changeCriterion(draft, goal, index, (criterion) => {
        criterion.status = event.status
        if (event.kind === "criterion_retry") criterion.attempt = event.attempt
      })
      break
    }
    case "evidence_added": {
      const index = criterionIndex(event.evidence.criterionId)
      if (index < 0) return `unknown criterion ${event.evidence.criterionId}`
      const evidence = { ...event.evidence, at: event.at }
      changeCriterion(draft, goal, index, (criterion) => {
        criterion.evidence = appended(draft, criterion.evidence, evidence)
      })
      draft.counters.evidence += 1
      break
    }
    case "checkpoint": {
      goal.checkpoints = appended(draft, goal.checkpoints, { ...event.checkpoint, at: event.at })
      draft.counters.checkpoint += 1
      break
    }
    case "steer": {
      goal.steering = appended(draft, goal.steering, { ...event.steering, at: event.at })
      draft.counters.steering += 1
      if (event.criterion !== undefined) {
        goal.criteria = appended(draft, goal.criteria, newCriterion(event.criterion))
        draft.counters.criterion += 1
      }
      break
    }
    case "review_blocker": {
      goal.reviewBlockers = appended(draft, goal.reviewBlockers, { id: event.blocker.id, detail: event.blocker.detail, status: "open", openedAt: event.at })
      draft.counters.blocker += 1
      break
    }
    case "review_blocker_resolved": {
      const index = goal.reviewBlockers.findIndex((blocker) => blocker.id === event.blockerId)
      const blocker = goal.reviewBlockers[index]
      if (blocker === undefined) return `unknown review blocker ${event.blockerId}`
      const blockers = ownedList(draft, goal.reviewBlockers)
      blockers[index] = { ...blocker, status: "resolved", resolvedAt: event.at }
      goal.reviewBlockers = blockers
      break
    }
    case "goal_status": {
      goal.status = event.status
      break
    }
    case "goal_completed": {
      goal.status = "complete"
      goal.completedAt = event.at
      break
    }
  }
  goal.updatedAt = event.at
  goal.status = settledStatus(goal, event.kind === "review_blocker_resolved")
  draft.seq = event.seq
  return undefined
}

/**
 * Rebuilds state from events, in order, starting from `from` (the empty state by default). Fails
 * with the first event that does not follow or does not fit. Neither argument is modified, except
 * through `owned`: the lists and criteria a caller's earlier folds made (a fold adds each it makes)
 * and that nothing outside the caller has seen since. Those the fold changes in place rather than
 * copying them, so a writer that keeps its latest state to itself appends an event without copying
 * the list it grows; a caller whose state has been handed out starts a new set.
 */
export const fold = (
  events: Iterable<LedgerEvent>,
  from: GoalState = emptyState,
  owned: WeakSet<object> = new WeakSet()
): Result.Result<GoalState, FoldFailure> => {
  const index = idIndexOf(from)
  // Taken over: from here on it describes the draft, and the state it folds to if the fold succeeds.
  index.describes = undefined
  const draft = toDraft(from, index.series, owned)
  for (const event of events) {
    const reason = applyToDraft(draft, event)
    if (reason !== undefined) return Result.fail({ seq: event.seq, reason })
  }
  const folded: GoalState = { seq: draft.seq, counters: draft.counters, goal: draft.goal }
  index.describes = folded
  idIndexes.set(folded, index)
  return Result.succeed(folded)
}

/** A state as a reader should see it: the status its open review blockers imply (see `settledStatus`). */
export const deriveStatus = (state: GoalState): GoalState => {
  if (state.goal === null) return state
  const status = settledStatus(state.goal, false)
  return status === state.goal.status ? state : { ...state, goal: { ...state.goal, status } }
}
