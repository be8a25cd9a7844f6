import { Result, Schema } from "effect"
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
} from "./Commands.js"
import {
  type DomainError,
  GateRefused,
  GoalAlreadyComplete,
  InvalidInput,
  NoActiveGoal,
  ObjectiveConflict,
  SteeringRejected,
  UnknownBlocker,
  UnknownCriterion
} from "./Errors.js"
import { evaluateGate, GateStatus } from "./Gate.js"
import {
  type Blocker,
  type Checkpoint,
  type Criterion,
  type CriterionSpec,
  type CriterionStatus,
  emptyState,
  type Evidence,
  Goal,
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

/** What a decision needs besides the state: the time to stamp and the session (for error data). */
export interface DecideContext {
  readonly now: string
  readonly sessionId: string
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

/**
 * The goal a mutation applies to. A complete goal only changes with `force`; the returned flag says
 * whether the event must record that the change was forced.
 */
const mutableGoal = (
  state: GoalState,
  context: DecideContext,
  force: boolean | undefined
): Result.Result<{ readonly goal: Goal; readonly forced: boolean }, DomainError> => {
  const goal = state.goal
  if (goal === null) return Result.fail(new NoActiveGoal({ sessionId: context.sessionId }))
  if (goal.status !== "complete") return Result.succeed({ goal, forced: false })
  return force === true ? Result.succeed({ goal, forced: true }) : Result.fail(new GoalAlreadyComplete({ goalId: goal.id }))
}

const forcedField = (forced: boolean): { readonly forced?: true } => (forced ? { forced: true } : {})

/**
 * Sets the session's objective. A session holds one aggregate objective: the same objective again is
 * answered with the goal as it is (its criteria must already be there), a different one is refused
 * while the current goal is not complete. After completion a new objective starts a new goal.
 */
export const decideSet = (state: GoalState, context: DecideContext, input: SetInput): Decision<Goal> => {
  const specs = input.criteria ?? []
  const current = state.goal
  if (current !== null && current.status !== "complete") {
    const sameObjective = current.objective === input.objective
    if (sameObjective && specs.every((spec) => current.criteria.some((criterion) => sameSpec(criterion, spec)))) {
      return { _tag: "Unchanged", value: current }
    }
    return refuse(new ObjectiveConflict({ current: current.objective, requested: input.objective }))
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
          ...forcedField(forced),
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
          ...forcedField(forced),
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
              ...forcedField(forced),
              criterionId: criterion.id,
              status: input.status,
              attempt: criterion.attempt + 1
            },
            answer
          )
        : commit(
            state,
            context,
            { kind: "criterion_status", ...forcedField(forced), criterionId: criterion.id, status: input.status },
            answer
          )
    }
  })

/**
 * Steering needs evidence and a rationale; only `add_criterion` changes structure, and only by adding
 * a criterion. A directive that would weaken completion is refused and the refusal is recorded.
 */
export const decideSteer = (state: GoalState, context: DecideContext, input: SteerInput): Decision<Steering> =>
  Result.match(mutableGoal(state, context, input.force), {
    onFailure: (error) => refuse(error),
    onSuccess: ({ forced }) => {
      if (input.evidence.trim() === "") return refuse(new SteeringRejected({ reason: "steering needs evidence", recorded: false }))
      if (input.rationale.trim() === "") {
        return refuse(new SteeringRejected({ reason: "steering needs a rationale", recorded: false }))
      }
      if (input.kind === "add_criterion" && input.criterion === undefined) {
        return refuse(new InvalidInput({ reason: "an add_criterion directive needs the criterion to add" }))
      }
      if (input.kind !== "add_criterion" && input.criterion !== undefined) {
        return refuse(new InvalidInput({ reason: `only add_criterion changes structure; a ${input.kind} directive carries no criterion` }))
      }
      const weakening = weakeningReason(input.directive)
      if (weakening !== undefined) {
        const reason = `the directive weakens completion: ${weakening}`
        return refuse(
          new SteeringRejected({ reason, recorded: true }),
          stamp(state, context, {
            kind: "steering_rejected",
            directive: input.directive,
            steeringKind: input.kind,
            evidence: input.evidence,
            rationale: input.rationale,
            reason
          })
        )
      }
      const id = nextId(state.counters, "steering")
      const criterionId = input.criterion === undefined ? undefined : nextId(state.counters, "criterion")
      return commit(
        state,
        context,
        {
          kind: "steer",
          ...forcedField(forced),
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
          ...forcedField(forced),
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
        { kind: "review_blocker", ...forcedField(forced), blocker: { id: nextId(state.counters, "blocker"), detail: input.detail } },
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
        { kind: "review_blocker_resolved", ...forcedField(forced), blockerId: blocker.id },
        (next) => {
          const resolved = goalOf(next).reviewBlockers.find((entry) => entry.id === blocker.id)
          if (resolved === undefined) throw new Error(`a committed event lost blocker ${blocker.id}`)
          return resolved
        }
      )
    }
  })

/** `active` with an open review blocker is stored as `review_blocked`: a blocker always shows. */
export const decideSetGoalStatus = (state: GoalState, context: DecideContext, input: SetGoalStatusInput): Decision<Goal> =>
  Result.match(mutableGoal(state, context, input.force), {
    onFailure: (error) => refuse(error),
    onSuccess: ({ forced }) => commit(state, context, { kind: "goal_status", ...forcedField(forced), status: input.status }, goalOf)
  })

/**
 * Completes the goal when the gate passes. With `force` a closed gate is overridden and the ledger
 * records what was unmet; a goal that is already complete is never completed twice.
 */
export const decideComplete = (state: GoalState, context: DecideContext, input: CompleteInput): Decision<Goal> => {
  const goal = state.goal
  if (goal === null) return refuse(new NoActiveGoal({ sessionId: context.sessionId }))
  if (goal.status === "complete") return refuse(new GoalAlreadyComplete({ goalId: goal.id }))
  const gate = evaluateGate(goal)
  if (!gate.passed && input.force !== true) return refuse(new GateRefused({ unmet: gate.unmet }))
  return commit(
    state,
    context,
    { kind: "goal_completed", ...forcedField(!gate.passed), unmet: gate.unmet },
    goalOf
  )
}

/** What `status` answers: the goal (or none yet) and the gate over it. */
export const GoalStatusReport = Schema.Struct({ goal: Schema.NullOr(Goal), gate: GateStatus })
export type GoalStatusReport = typeof GoalStatusReport.Type

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

type DraftCriterion = Mutable<Omit<Criterion, "evidence">> & { evidence: Array<Evidence> }

type DraftGoal = Mutable<Omit<Goal, "criteria" | "checkpoints" | "steering" | "reviewBlockers">> & {
  criteria: Array<DraftCriterion>
  checkpoints: Array<Checkpoint>
  steering: Array<Steering>
  reviewBlockers: Array<Blocker>
}

interface Draft {
  seq: number
  counters: { -readonly [K in keyof IdCounters]: number }
  goal: DraftGoal | null
}

const toDraft = (state: GoalState): Draft => ({
  seq: state.seq,
  counters: { ...state.counters },
  goal:
    state.goal === null
      ? null
      : {
          ...state.goal,
          criteria: state.goal.criteria.map((criterion) => ({ ...criterion, evidence: [...criterion.evidence] })),
          checkpoints: [...state.goal.checkpoints],
          steering: [...state.goal.steering],
          reviewBlockers: [...state.goal.reviewBlockers]
        }
})

const hasOpenBlocker = (goal: Pick<Goal, "reviewBlockers">) => goal.reviewBlockers.some((blocker) => blocker.status === "open")

const newCriterion = (spec: { id: string; scenario: string; qaChannel: Criterion["qaChannel"]; testRef: string }): DraftCriterion => ({
  id: spec.id,
  scenario: spec.scenario,
  qaChannel: spec.qaChannel,
  testRef: spec.testRef,
  status: "pending",
  attempt: 1,
  evidence: []
})

/** Applies one event to the draft in place; answers the reason when the event does not fit the state. */
const applyToDraft = (draft: Draft, event: LedgerEvent): string | undefined => {
  if (event.seq !== draft.seq + 1) return `sequence ${event.seq} follows ${draft.seq}`
  if (event.kind === "goal_created") {
    if (draft.goal !== null && draft.goal.status !== "complete") return "a goal was created while another is open"
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
  const goal = draft.goal
  if (goal === null) return `${event.kind} before any goal was created`
  const criterionById = (id: string) => goal.criteria.find((criterion) => criterion.id === id)
  switch (event.kind) {
    case "criterion_added": {
      goal.criteria.push(newCriterion(event.criterion))
      draft.counters.criterion += 1
      break
    }
    case "criterion_status":
    case "criterion_retry": {
      const criterion = criterionById(event.criterionId)
      if (criterion === undefined) return `unknown criterion ${event.criterionId}`
      criterion.status = event.status
      if (event.kind === "criterion_retry") criterion.attempt = event.attempt
      break
    }
    case "evidence_added": {
      const criterion = criterionById(event.evidence.criterionId)
      if (criterion === undefined) return `unknown criterion ${event.evidence.criterionId}`
      criterion.evidence.push({ ...event.evidence, at: event.at })
      draft.counters.evidence += 1
      break
    }
    case "checkpoint": {
      goal.checkpoints.push({ ...event.checkpoint, at: event.at })
      draft.counters.checkpoint += 1
      break
    }
    case "steer": {
      goal.steering.push({ ...event.steering, at: event.at })
      draft.counters.steering += 1
      if (event.criterion !== undefined) {
        goal.criteria.push(newCriterion(event.criterion))
        draft.counters.criterion += 1
      }
      break
    }
    case "steering_rejected": {
      // A refused directive is audited in the ledger and leaves the aggregate as it was.
      draft.seq = event.seq
      return undefined
    }
    case "review_blocker": {
      goal.reviewBlockers.push({ id: event.blocker.id, detail: event.blocker.detail, status: "open", openedAt: event.at })
      draft.counters.blocker += 1
      break
    }
    case "review_blocker_resolved": {
      const index = goal.reviewBlockers.findIndex((blocker) => blocker.id === event.blockerId)
      const blocker = goal.reviewBlockers[index]
      if (blocker === undefined) return `unknown review blocker ${event.blockerId}`
      goal.reviewBlockers[index] = { ...blocker, status: "resolved", resolvedAt: event.at }
      break
    }
    case "goal_status": {
      goal.status = event.status
      break
    }
    case "goal_completed": {
      goal.status = "complete"
      goal.completedAt = event.at
      if (event.forced === true) goal.forcedCompletion = true
      break
    }
  }
  goal.updatedAt = event.at
  if (goal.status === "active" && hasOpenBlocker(goal)) goal.status = "review_blocked"
  if (goal.status === "review_blocked" && !hasOpenBlocker(goal) && event.kind === "review_blocker_resolved") goal.status = "active"
  draft.seq = event.seq
  return undefined
}

/**
 * Rebuilds state from events, in order, starting from `from` (the empty state by default). Fails
 * with the first event that does not follow or does not fit. Neither argument is modified.
 */
export const fold = (events: Iterable<LedgerEvent>, from: GoalState = emptyState): Result.Result<GoalState, FoldFailure> => {
  const draft = toDraft(from)
  for (const event of events) {
    const reason = applyToDraft(draft, event)
    if (reason !== undefined) return Result.fail({ seq: event.seq, reason })
  }
  return Result.succeed<GoalState>(draft)
}

/** A state as a reader should see it: an `active` goal with an open review blocker is `review_blocked`. */
export const deriveStatus = (state: GoalState): GoalState =>
  state.goal !== null && state.goal.status === "active" && hasOpenBlocker(state.goal)
    ? { ...state, goal: { ...state.goal, status: "review_blocked" } }
    : state
