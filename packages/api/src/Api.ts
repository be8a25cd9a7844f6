import { Schema } from "effect"
import {
  HttpApi,
  HttpApiEndpoint,
  HttpApiGroup,
  HttpApiMiddleware,
  HttpApiSecurity,
  OpenApi
} from "effect/http-api"
import { Armed, ArmRequest } from "./Armed.js"
import { BrowserProviders } from "./BrowserProviders.js"
import { InvalidGlobals, MethodNotAllowed, MisdirectedRequest, PayloadTooLarge, RouteNotFound, Unauthorized, UnsupportedMediaType } from "./Errors.js"
import { ExecuteRequest, ExecuteResponse } from "./ExecuteResult.js"
import * as Goals from "./Goals.js"
import { Health } from "./Health.js"
import { ProbeDriver, ProbeResult } from "./ProbeResult.js"
import { LoadReport } from "./Skills.js"

/** The version of the contract, reported by `/health` (as `api`) and in the OpenAPI document. */
export const API_VERSION = "0.1.0"

/** The command that rewrites the committed artifacts derived from this contract. */
export const REGENERATE_COMMAND = "pnpm --filter @armory/client generate"

/** Bearer-token authentication, required by every group but `health`. */
export class Authorization extends HttpApiMiddleware.Service<Authorization>()("armory/Authorization", {
  error: Unauthorized,
  security: { bearer: HttpApiSecurity.bearer }
}) {}

/**
 * Every route can meet the server's request guards: a foreign `Host` header, a path spelled another
 * way than the route's (not found), a method the path does not take.
 */
const guarded = [MisdirectedRequest, RouteNotFound, MethodNotAllowed] as const

/** Routes with a body can also meet the body limit and the JSON-only rule. */
const guardedWithBody = [...guarded, PayloadTooLarge, UnsupportedMediaType] as const

export const HealthGroup = HttpApiGroup.make("health")
  .add(HttpApiEndpoint.get("health", "/health", { success: Health, error: guarded }))
  .annotate(OpenApi.Description, "Liveness; needs no token.")

export const SkillsGroup = HttpApiGroup.make("skills")
  .add(
    HttpApiEndpoint.get("list", "/skills", { success: LoadReport, error: guarded }).annotate(
      OpenApi.Description,
      "The server's skill catalog, loaded once and kept current by watching its roots: the full load report: skills, dropped documents, ignored autoInject blocks, shadowed names and warnings."
    ),
    HttpApiEndpoint.post("arm", "/skills/arm", {
      payload: ArmRequest,
      success: Schema.Array(Armed),
      error: guardedWithBody
    }).annotate(OpenApi.Description, "The skills that arm for a prompt (and a page URL and file paths), in load order.")
  )
  .middleware(Authorization)
  .annotate(OpenApi.Description, "Skill discovery (@armory/skill-loader) and arming (@armory/skill-arming).")

const goalRead = { query: Goals.GoalSessionQuery, error: [...guarded, ...Goals.GoalsErrors] } as const
const goalWrite = { query: Goals.GoalSessionQuery, error: [...guardedWithBody, ...Goals.GoalsErrors] } as const

export const GoalsGroup = HttpApiGroup.make("goals")
  .add(
    HttpApiEndpoint.get("status", "/goals/status", { ...goalRead, success: Goals.GoalStatusReport }).annotate(
      OpenApi.Description,
      "The session's goal and its completion gate (passed, and everything unmet)."
    ),
    HttpApiEndpoint.get("snapshot", "/goals/snapshot", { ...goalRead, success: Goals.GoalSnapshot }).annotate(
      OpenApi.Description,
      "The short text a host injects every turn: objective, next unmet criteria, open blockers, gate."
    ),
    HttpApiEndpoint.get("sessions", "/goals/sessions", { ...goalRead, success: Schema.Array(Schema.String) }).annotate(
      OpenApi.Description,
      "The ids of the separate goal sessions under the server's goals root."
    ),
    HttpApiEndpoint.post("set", "/goals/set", { ...goalWrite, payload: Goals.SetInput, success: Goals.Goal }).annotate(
      OpenApi.Description,
      "Sets the session's objective (with optional criteria); a different objective than the active one is a 409 ObjectiveConflict."
    ),
    HttpApiEndpoint.post("addCriterion", "/goals/criteria", {
      ...goalWrite,
      payload: Goals.AddCriterionInput,
      success: Goals.Criterion
    }).annotate(OpenApi.Description, "Adds a success criterion to the active goal."),
    HttpApiEndpoint.post("addEvidence", "/goals/evidence", {
      ...goalWrite,
      payload: Goals.AddEvidenceInput,
      success: Goals.Evidence
    }).annotate(OpenApi.Description, "Attaches evidence (red, green, scenario, cleanup) to a criterion's current attempt."),
    HttpApiEndpoint.post("setCriterionStatus", "/goals/criterion-status", {
      ...goalWrite,
      payload: Goals.SetCriterionStatusInput,
      success: Goals.Criterion
    }).annotate(OpenApi.Description, "Sets a criterion's status; leaving fail or blocked starts a new attempt."),
    HttpApiEndpoint.post("steer", "/goals/steer", { ...goalWrite, payload: Goals.SteerInput, success: Goals.Steering }).annotate(
      OpenApi.Description,
      "Records a steering directive; one that weakens completion is a 422 SteeringRejected (and recorded)."
    ),
    HttpApiEndpoint.post("checkpoint", "/goals/checkpoint", {
      ...goalWrite,
      payload: Goals.CheckpointInput,
      success: Goals.Checkpoint
    }).annotate(OpenApi.Description, "Records a progress checkpoint."),
    HttpApiEndpoint.post("addBlocker", "/goals/blockers", {
      ...goalWrite,
      payload: Goals.AddBlockerInput,
      success: Goals.Blocker
    }).annotate(OpenApi.Description, "Opens a review blocker."),
    HttpApiEndpoint.post("resolveBlocker", "/goals/blockers/resolve", {
      ...goalWrite,
      payload: Goals.ResolveBlockerInput,
      success: Goals.Blocker
    }).annotate(OpenApi.Description, "Resolves a review blocker by id."),
    HttpApiEndpoint.post("setGoalStatus", "/goals/status", {
      ...goalWrite,
      payload: Goals.SetGoalStatusInput,
      success: Goals.Goal
    }).annotate(OpenApi.Description, "Sets the goal status (not complete: completion goes through /goals/complete)."),
    HttpApiEndpoint.post("complete", "/goals/complete", {
      ...goalWrite,
      payload: Goals.CompleteInput,
      success: Goals.Goal
    }).annotate(
      OpenApi.Description,
      "Completes the goal; refused with a 409 GateRefused listing everything unmet until the evidence gate passes."
    )
  )
  .middleware(Authorization)
  .annotate(
    OpenApi.Description,
    "The evidence-gated goal store (@armory/goal-store); `sessionId` picks a separate session (default: the root aggregate)."
  )

export const CapabilitiesGroup = HttpApiGroup.make("capabilities")
  .add(
    HttpApiEndpoint.get("probe", "/capabilities/probe", {
      query: { driver: Schema.optionalKey(ProbeDriver) },
      success: ProbeResult,
      error: guarded
    }).annotate(OpenApi.Description, "Probes an external driver (default agent-browser) with identity verification.")
  )
  .middleware(Authorization)
  .annotate(OpenApi.Description, "Identity-verified probes of external drivers (@armory/capability-probe).")

export const BrowserGroup = HttpApiGroup.make("browser")
  .add(
    HttpApiEndpoint.get("providers", "/browser/providers", { success: BrowserProviders, error: guarded }).annotate(
      OpenApi.Description,
      "The server's auto provider order for its platform and a probe of each provider (nothing is launched)."
    )
  )
  .middleware(Authorization)
  .annotate(OpenApi.Description, "Browser providers of the browser runtime (@armory/browser-runtime).")

export const CodemodeGroup = HttpApiGroup.make("codemode")
  .add(
    HttpApiEndpoint.post("execute", "/codemode/execute", {
      payload: ExecuteRequest,
      success: ExecuteResponse,
      error: [...guardedWithBody, InvalidGlobals]
    }).annotate(
      OpenApi.Description,
      "Runs JavaScript in the code-mode sandbox with the server's host tools (skills, channel, page) as globals."
    )
  )
  .middleware(Authorization)
  .annotate(OpenApi.Description, "Sandboxed code mode (@armory/codemode) over the host's tool tree.")

/**
 * The Armory HTTP API: one group per package. Request decoding failures are 400 problems that
 * carry every one of the Schema's reasons.
 */
export const Api = HttpApi.make("armory")
  .add(HealthGroup)
  .add(SkillsGroup)
  .add(GoalsGroup)
  .add(CapabilitiesGroup)
  .add(BrowserGroup)
  .add(CodemodeGroup)
  .middleware(HttpApiMiddleware.ProblemDetails)
  // A 400 lists every issue of a body or query, and a body field the Schema does not name is one
  // (as the document's `additionalProperties: false` says).
  .annotate(HttpApi.PayloadParseOptions, { errors: "all", onExcessProperty: "error" })
  .annotate(HttpApi.QueryParseOptions, { errors: "all" })
  .annotate(OpenApi.Title, "Armory HTTP API")
  .annotate(OpenApi.Version, API_VERSION)
  .annotate(
    OpenApi.Description,
    "The local HTTP API of `armory serve`. The committed openapi.json and the generated fetch client are " +
      `derived from the contract in @armory/api's src/Api.ts: regenerate them with \`${REGENERATE_COMMAND}\`, never by hand.`
  )
