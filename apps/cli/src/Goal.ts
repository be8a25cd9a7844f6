import { readFile, writeFile } from "node:fs/promises"
import { userInfo } from "node:os"
import {
  type Criterion,
  type CriterionSpec,
  CriterionStatus,
  decodeLedgerJsonl,
  DEFAULT_SESSION,
  encodeLedgerJsonl,
  EvidenceKind,
  type Goal,
  type GoalStatusReport,
  type Owed,
  type GoalStoreAccess,
  type GoalStoreError,
  type GoalMutationName,
  type GoalOperationName,
  type GoalReadName,
  type GoalStoreShape,
  type ImportReport,
  type InputOf,
  type OutputOf,
  QaChannel,
  repair,
  type RepairReport,
  runMutation,
  runRead,
  SettableGoalStatus,
  SteeringKind,
  type Unmet
} from "@armory/goal-store"
import { Console, Effect, Option, Schema } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { CommandFailed, invalidUsage, type UsageError } from "./internal/CommandFailed.js"
import { exportSession, importSession, openGoalSession } from "@armory/host"
import { goalStoreFlags, goalStoreSelection } from "./internal/GoalStores.js"
import { readStdin } from "./internal/Stdin.js"
import { renderTable } from "./internal/Table.js"

const EXIT_CODES =
  "Exit codes: 0 done, 1 refused or failed (the typed reason is printed; with --json also as JSON on stdout), 2 invalid usage."

const describe = (text: string) => `${text}\n${EXIT_CODES}`

/** The `goal` command with the flags every subcommand shares. */
const goalRoot = Command.make("goal").pipe(
  Command.withSharedFlags({
    sessionId: Flag.String("session-id").pipe(
      Flag.optional,
      Flag.withDescription("a separate goal session under sessions/<id>/ (default: the root aggregate)")
    ),
    root: Flag.String("root").pipe(Flag.optional, Flag.withDescription("with --store file: the goals directory (default: .armory/goals)")),
    ...goalStoreFlags,
    json: Flag.Boolean("json").pipe(Flag.withDefault(false), Flag.withDescription("print one JSON value"))
  })
)

/** The store and session the shared flags select. */
const selected = Effect.gen(function* () {
  const { sessionId, root, store, databaseUrl, databaseSchema, json } = yield* goalRoot
  const selection = yield* goalStoreSelection({ store, databaseUrl, databaseSchema, root: Option.getOrUndefined(root) })
  return { selection, sessionId: Option.getOrUndefined(sessionId), json }
})

const forceFlag = Flag.Boolean("force").pipe(
  Flag.withDefault(false),
  Flag.withDescription("as the operator: change a goal that is already complete (recorded with your user name); never opens the gate")
)

const forceField = (force: boolean): { readonly force?: true } => (force ? { force: true } : {})

/** Who the ledger names for a forced change made at this terminal. */
const terminalOperator = (): string => {
  try {
    return `armory goal (user ${userInfo().username})`
  } catch {
    return "armory goal"
  }
}

/** `--force` opens the store as the operator at the terminal; otherwise it is opened as any other surface. */
const accessFor = (force: boolean): GoalStoreAccess => (force ? { operator: terminalOperator() } : {})

const CRITERION_FORMAT = '"scenario|channel|test_ref"'
const isQaChannel = Schema.is(QaChannel)

/** Parses `--criterion "scenario|channel|test_ref"`; a malformed one is a usage error naming the part that is wrong. */
const criterionSpec = (text: string): Effect.Effect<CriterionSpec, UsageError> => {
  const refuse = (problem: string) => Effect.fail(invalidUsage(`--criterion ${JSON.stringify(text)}: ${problem}`))
  const parts = text.split("|")
  if (parts.length < 3) {
    return refuse(`expected ${CRITERION_FORMAT}, three parts separated by |, got ${parts.length === 1 ? "one (no |)" : "two"}`)
  }
  const [scenario = "", qaChannel = "", ...testRef] = parts.map((part) => part.trim())
  if (scenario === "") return refuse(`the scenario (before the first |) is empty; expected ${CRITERION_FORMAT}`)
  if (!isQaChannel(qaChannel)) {
    return refuse(`the channel ${JSON.stringify(qaChannel)} is not one of ${QaChannel.literals.join(", ")}; expected ${CRITERION_FORMAT}`)
  }
  const ref = testRef.join("|")
  if (ref === "") return refuse(`the test_ref (after the second |) is empty; expected ${CRITERION_FORMAT}`)
  return Effect.succeed({ scenario, qaChannel, testRef: ref })
}

/** A refusal as `--json` prints it: the tag, the message, and the error's own fields. */
const errorJson = (error: GoalStoreError) => JSON.stringify({ error: { ...error, _tag: error._tag, message: error.message } })

const failure = (error: GoalStoreError, json: boolean) =>
  Effect.gen(function* () {
    if (json) yield* Console.log(errorJson(error))
    return yield* new CommandFailed({ message: `${error._tag}: ${error.message}` })
  })

/**
 * Opens the session the shared flags name, runs one store operation and prints its result: JSON with
 * `--json`, otherwise the human rendering. Every refusal exits 1 with its tag and reason.
 */
const withStore = <A>(
  operation: (store: GoalStoreShape) => Effect.Effect<A, GoalStoreError>,
  render: (result: A) => string,
  force = false
) =>
  Effect.scoped(
    Effect.gen(function* () {
      const { selection, sessionId, json } = yield* selected
      const result = yield* openGoalSession(selection, sessionId, accessFor(force)).pipe(Effect.flatMap(operation), Effect.result)
      if (result._tag === "Failure") return yield* failure(result.failure, json)
      const text = json ? JSON.stringify(result.success) : render(result.success)
      // An empty rendering (the snapshot of a session with no open goal) prints nothing at all.
      if (text !== "") yield* Console.log(text)
    })
  )

const criterionLine = (criterion: Criterion) =>
  `${criterion.id} [${criterion.status}, attempt ${criterion.attempt}] ${criterion.scenario} (${criterion.qaChannel}: ${criterion.testRef})`

const renderGoal = (goal: Goal) =>
  [`goal ${goal.id} [${goal.status}]: ${goal.objective}`, ...goal.criteria.map((criterion) => `  ${criterionLine(criterion)}`)].join("\n")

const OWED_TEXT: Readonly<Record<Owed, string>> = { pass: "status pass", green: "green evidence", scenario: "scenario evidence" }

/** One thing the gate waits for, as `goal status` lists it. */
const unmetLine = (unmet: Unmet): string => {
  switch (unmet.kind) {
    case "criterion":
      return `${unmet.criterionId} owes ${unmet.owes.map((owed) => OWED_TEXT[owed]).join(", ")} (${unmet.status}, attempt ${unmet.attempt})`
    case "blocker":
      return `blocker ${unmet.blockerId} is open: ${unmet.detail}`
    case "goal":
      return unmet.reason
  }
}

const renderStatus = (report: GoalStatusReport) => {
  const { goal, gate } = report
  if (goal === null) return "no goal set"
  const lines = [`goal ${goal.id} [${goal.status}]: ${goal.objective}`]
  if (goal.criteria.length > 0) {
    lines.push(
      renderTable(
        ["criterion", "status", "attempt", "evidence", "scenario"],
        goal.criteria.map((criterion) => [
          criterion.id,
          criterion.status,
          String(criterion.attempt),
          criterion.evidence
            .filter((entry) => entry.attempt === criterion.attempt)
            .map((entry) => entry.kind)
            .join(",") || "-",
          `${criterion.scenario} (${criterion.qaChannel}: ${criterion.testRef})`
        ])
      )
    )
  }
  for (const blocker of goal.reviewBlockers) lines.push(`blocker ${blocker.id} ${blocker.status}: ${blocker.detail}`)
  if (gate.passed) lines.push(goal.status === "complete" ? "gate: passed; the goal is complete" : "gate: passed; the goal may be completed")
  else lines.push("gate: closed; completion waits for:", ...gate.unmet.map((unmet) => `  - ${unmetLine(unmet)}`))
  return lines.join("\n")
}

/** A goal mutation as a subcommand: its name on the command line, its arguments and flags, how they become the mutation's input, how its answer prints. */
interface MutationCommandSpec<N extends GoalMutationName, Config extends Command.Command.Config> {
  readonly command: string
  readonly config: Config
  readonly input: (parsed: Command.Command.Config.Infer<Config>) => Effect.Effect<InputOf<N>, UsageError>
  readonly render: (answer: OutputOf<N>) => string
  readonly short: string
  readonly description: string
}

const mutationCommand = <N extends GoalMutationName, const Config extends Command.Command.Config>(operation: N, spec: MutationCommandSpec<N, Config>) =>
  Command.make(spec.command, spec.config, (parsed) =>
    Effect.flatMap(spec.input(parsed), (input) => {
      // `--force` opens the store as the operator: the ledger names who forced the change.
      const forced = Reflect.get(input, "force") === true
      return withStore((store) => runMutation(store, operation, input), spec.render, forced)
    })
  ).pipe(Command.withShortDescription(spec.short), Command.withDescription(describe(spec.description)))

const readCommand = <N extends GoalReadName>(
  operation: N,
  spec: { readonly command: string; readonly render: (answer: OutputOf<N>) => string; readonly short: string; readonly description: string }
) =>
  Command.make(spec.command, {}, () => withStore((store) => runRead(store, operation), spec.render)).pipe(
    Command.withShortDescription(spec.short),
    Command.withDescription(describe(spec.description))
  )

/**
 * Every goal operation as a subcommand, in the order `armory goal --help` lists them; an operation
 * without a subcommand here does not compile.
 */
const GOAL_COMMANDS = {
  set: mutationCommand("set", {
    command: "set",
    config: {
      objective: Flag.String("objective").pipe(Flag.withDescription("what the goal achieves")),
      criteria: Flag.String("criterion").pipe(Flag.atLeast(0), Flag.withDescription('a success criterion as "scenario|channel|test_ref" (repeatable)'))
    },
    input: ({ objective, criteria }) => Effect.map(Effect.forEach(criteria, criterionSpec), (specs) => ({ objective, criteria: specs })),
    render: renderGoal,
    short: "Set the session's objective, with success criteria",
    description: "Set the objective; a session holds one. A different objective is refused (ObjectiveConflict)."
  }),
  addCriterion: mutationCommand("addCriterion", {
    command: "criterion",
    config: {
      scenario: Flag.String("scenario").pipe(Flag.withDescription("the behaviour to verify")),
      qaChannel: Flag.Literals("qa-channel", QaChannel.literals).pipe(Flag.withDescription("how it is verified")),
      testRef: Flag.String("test-ref").pipe(Flag.withDescription("the test that proves it")),
      force: forceFlag
    },
    input: ({ scenario, qaChannel, testRef, force }) => Effect.succeed({ scenario, qaChannel, testRef, ...forceField(force) }),
    render: criterionLine,
    short: "Add a success criterion",
    description: "Add a success criterion to the goal."
  }),
  addEvidence: mutationCommand("addEvidence", {
    command: "evidence",
    config: {
      criterionId: Argument.String("criterion-id").pipe(Argument.withDescription("the criterion the evidence is for (c1, c2, …)")),
      kind: Flag.Literals("kind", EvidenceKind.literals).pipe(Flag.withDescription("red, green, scenario, cleanup or note (a note never counts for the gate)")),
      ref: Flag.String("ref").pipe(Flag.withDescription("where the evidence is: a run, a file, a recording")),
      detail: Flag.String("detail").pipe(Flag.optional, Flag.withDescription("what the evidence shows, in a few words")),
      force: forceFlag
    },
    input: ({ criterionId, kind, ref, detail, force }) =>
      Effect.succeed({ criterionId, kind, ref, ...Option.match(detail, { onNone: () => ({}), onSome: (text) => ({ detail: text }) }), ...forceField(force) }),
    render: (evidence) => `evidence ${evidence.id} (${evidence.kind}) on ${evidence.criterionId} attempt ${evidence.attempt}: ${evidence.ref}`,
    short: "Attach evidence to a criterion's current attempt",
    description: "Attach red, green, scenario, cleanup or note evidence to the criterion's current attempt."
  }),
  setCriterionStatus: mutationCommand("setCriterionStatus", {
    command: "criterion-status",
    config: {
      criterionId: Argument.String("criterion-id").pipe(Argument.withDescription("the criterion to set (c1, c2, …)")),
      status: Argument.Literals("status", CriterionStatus.literals).pipe(Argument.withDescription("its new status")),
      force: forceFlag
    },
    input: ({ criterionId, status, force }) => Effect.succeed({ criterionId, status, ...forceField(force) }),
    render: criterionLine,
    short: "Set a criterion's status",
    description: "Set a criterion's status; leaving fail/blocked for in_progress/pending starts a new attempt."
  }),
  steer: mutationCommand("steer", {
    command: "steer",
    config: {
      directive: Argument.String("directive").pipe(Argument.withDescription("what to do differently")),
      kind: Flag.Literals("kind", SteeringKind.literals).pipe(Flag.withDescription("what the directive does to the goal")),
      evidence: Flag.String("evidence").pipe(Flag.withDescription("what the directive is based on")),
      rationale: Flag.String("rationale").pipe(Flag.withDescription("why it is right")),
      criterion: Flag.String("criterion").pipe(Flag.optional, Flag.withDescription('for --kind add_criterion: the criterion as "scenario|channel|test_ref"')),
      force: forceFlag
    },
    input: ({ directive, kind, evidence, rationale, criterion, force }) =>
      Effect.map(Effect.forEach(Option.toArray(criterion), criterionSpec), ([spec]) => ({
        directive,
        kind,
        evidence,
        rationale,
        ...(spec === undefined ? {} : { criterion: spec }),
        ...forceField(force)
      })),
    render: (steering) => `steering ${steering.id} (${steering.kind}) recorded${steering.criterionId === undefined ? "" : `; added ${steering.criterionId}`}`,
    short: "Record a steering directive",
    description: "Record a directive with evidence and rationale; completion-weakening ones are refused, and every refusal is recorded."
  }),
  checkpoint: mutationCommand("checkpoint", {
    command: "checkpoint",
    config: {
      summary: Argument.String("summary").pipe(Argument.withDescription("where the work stands")),
      activeCriterion: Flag.String("active-criterion").pipe(Flag.optional, Flag.withDescription("the criterion being worked on")),
      force: forceFlag
    },
    input: ({ summary, activeCriterion, force }) => Effect.succeed({ summary, ...Option.match(activeCriterion, { onNone: () => ({}), onSome: (id) => ({ activeCriterion: id }) }), ...forceField(force) }),
    render: (checkpoint) => `checkpoint ${checkpoint.id} recorded`,
    short: "Record a progress checkpoint",
    description: "Record a progress checkpoint."
  }),
  addBlocker: mutationCommand("addBlocker", {
    command: "blocker",
    config: { detail: Argument.String("detail").pipe(Argument.withDescription("what the review must settle")), force: forceFlag },
    input: ({ detail, force }) => Effect.succeed({ detail, ...forceField(force) }),
    render: (blocker) => `blocker ${blocker.id} opened: ${blocker.detail}`,
    short: "Open a review blocker",
    description: "Open a review blocker; the goal is review_blocked until every blocker is resolved."
  }),
  resolveBlocker: mutationCommand("resolveBlocker", {
    command: "resolve-blocker",
    config: { blockerId: Argument.String("blocker-id").pipe(Argument.withDescription("the blocker to resolve (b1, b2, …)")), force: forceFlag },
    input: ({ blockerId, force }) => Effect.succeed({ blockerId, ...forceField(force) }),
    render: (blocker) => `blocker ${blocker.id} ${blocker.status}`,
    short: "Resolve a review blocker",
    description: "Resolve a review blocker."
  }),
  setGoalStatus: mutationCommand("setGoalStatus", {
    command: "goal-status",
    config: { status: Argument.Literals("status", SettableGoalStatus.literals).pipe(Argument.withDescription("the goal's new status")), force: forceFlag },
    input: ({ status, force }) => Effect.succeed({ status, ...forceField(force) }),
    render: (goal) => `goal ${goal.id} is ${goal.status}`,
    short: "Set the goal status",
    description: "Set the goal status; completion goes through `goal complete`."
  }),
  status: readCommand("status", {
    command: "status",
    render: renderStatus,
    short: "Show the goal, its criteria and the gate",
    description: "Show the goal, its criteria with current-attempt evidence, its blockers (open and resolved) and what the gate waits for."
  }),
  complete: mutationCommand("complete", {
    command: "complete",
    config: { force: forceFlag },
    input: ({ force }) => Effect.succeed(forceField(force)),
    render: (goal) => `goal ${goal.id} complete`,
    short: "Complete the goal through the evidence gate",
    description:
      "Complete the goal; refused (GateRefused, listing what is unmet) until the gate passes. Nothing but evidence opens it:\n" +
      "--force only lets the operator complete again a goal that is already complete, and the gate must pass then too."
  }),
  sessions: readCommand("sessions", {
    command: "sessions",
    render: (sessions) => (sessions.length === 0 ? "no sessions" : sessions.join("\n")),
    short: "List goal sessions",
    description: "List the sessions under sessions/."
  }),
  snapshot: readCommand("snapshot", {
    command: "snapshot",
    render: (text) => text,
    short: "Print the per-turn goal snapshot",
    description: "Print the short text a host injects every turn: objective, next unmet criteria, blockers, gate."
  })
} satisfies { readonly [N in GoalOperationName]: unknown }

const renderRepair = (report: RepairReport) =>
  report.actions.length === 0
    ? `session ${report.sessionId}: nothing to repair`
    : [`session ${report.sessionId}: ${report.applied ? "repaired" : "would"}`, ...report.actions.map((action) => `- ${action}`)].join("\n")

const repairCommand = Command.make(
  "repair",
  { dryRun: Flag.Boolean("dry-run").pipe(Flag.withDefault(false), Flag.withDescription("only say what would be done")) },
  ({ dryRun }) =>
    Effect.gen(function* () {
      const { selection, sessionId, json } = yield* selected
      if (selection.store !== "file") {
        return yield* invalidUsage("repair mends the files of the file store; a PostgreSQL store needs no repair")
      }
      const result = yield* repair({ root: selection.root, sessionId, dryRun }).pipe(Effect.result)
      if (result._tag === "Failure") return yield* failure(result.failure, json)
      yield* Console.log(json ? JSON.stringify(result.success) : renderRepair(result.success))
    })
).pipe(
  Command.withShortDescription("Repair a session an open refused (MalformedState)"),
  Command.withDescription(
    describe(
      "Quarantine bad ledger lines and torn tails, move a malformed goals.json aside and rebuild it from the ledger.\nNothing is deleted; the original ledger is kept as a .bak copy."
    )
  )
)

const exportCommand = Command.make(
  "export",
  {
    output: Flag.String("output").pipe(Flag.optional, Flag.withDescription("write the ledger to this file instead of stdout"))
  },
  ({ output }) =>
    Effect.scoped(
      Effect.gen(function* () {
        const { selection, sessionId, json } = yield* selected
        const result = yield* exportSession(selection, sessionId).pipe(Effect.result)
        if (result._tag === "Failure") return yield* failure(result.failure, json)
        const ledger = encodeLedgerJsonl(result.success)
        if (Option.isNone(output)) return yield* Effect.sync(() => process.stdout.write(ledger))
        yield* Effect.tryPromise({
          try: () => writeFile(output.value, ledger),
          catch: (error) => new CommandFailed({ message: `cannot write ${output.value}: ${String(error)}` })
        })
        const summary = { sessionId: sessionId ?? DEFAULT_SESSION, events: result.success.length, file: output.value }
        yield* Console.log(json ? JSON.stringify(summary) : `exported ${summary.events} events of session ${summary.sessionId} to ${summary.file}`)
      })
    )
).pipe(
  Command.withShortDescription("Print a session's ledger as JSON Lines"),
  Command.withDescription(
    describe(
      "Print the session's committed ledger, one armory.goal.ledger/v1 event per line (to stdout, or --output FILE).\n" +
        "`goal import` replays it into an empty session of either store."
    )
  )
)

const renderImport = (report: ImportReport) => `imported ${report.events} events into session ${report.sessionId} (seq ${report.seq})`

const importCommand = Command.make(
  "import",
  { file: Argument.String("file").pipe(Argument.withDescription("a ledger in JSON Lines (from `goal export`), or - for stdin")) },
  ({ file }) =>
    Effect.scoped(
      Effect.gen(function* () {
        const { selection, sessionId, json } = yield* selected
        const text = yield* Effect.tryPromise({
          try: () => (file === "-" ? readStdin() : readFile(file, "utf8")),
          catch: (error) => new CommandFailed({ message: `cannot read ${file === "-" ? "stdin" : file}: ${String(error)}` })
        })
        const result = yield* Effect.fromResult(decodeLedgerJsonl(text)).pipe(
          Effect.flatMap((events) => importSession(selection, sessionId, events)),
          Effect.result
        )
        if (result._tag === "Failure") return yield* failure(result.failure, json)
        yield* Console.log(json ? JSON.stringify(result.success) : renderImport(result.success))
      })
    )
).pipe(
  Command.withShortDescription("Replay a ledger into an empty session"),
  Command.withDescription(
    describe(
      "Replay an exported ledger into an empty session of the selected store, through the goal rules: ids, attempts\n" +
        "and timestamps carry over. A session that already has a goal, or an event the rules would not have\n" +
        "recorded at that point, is refused (InvalidInput) and nothing is written."
    )
  )
)

export const goalCommand = goalRoot.pipe(
  Command.withShortDescription("Durable, evidence-gated goals (the litgoal surface)"),
  Command.withSubcommands([
    ...Object.values(GOAL_COMMANDS),
    repairCommand,
    exportCommand,
    importCommand
  ])
)
