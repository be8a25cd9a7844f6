import { LoadReport } from "@armory/skill-loader"
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
import { InvalidGlobals, MisdirectedRequest, PayloadTooLarge, Unauthorized } from "./Errors.js"
import { ExecuteRequest, ExecuteResponse } from "./ExecuteResult.js"
import { Health } from "./Health.js"
import { ProbeDriver, ProbeResult } from "./ProbeResult.js"

/** The version of the contract, reported by `/health` and in the OpenAPI document. */
export const API_VERSION = "0.1.0"

/** The command that rewrites the committed artifacts derived from this contract. */
export const REGENERATE_COMMAND = "pnpm --filter @armory/client generate"

/** Bearer-token authentication, required by every group but `health`. */
export class Authorization extends HttpApiMiddleware.Service<Authorization>()("armory/Authorization", {
  error: Unauthorized,
  security: { bearer: HttpApiSecurity.bearer }
}) {}

/** Every route can meet the server's request guards: a foreign `Host` header. */
const guarded = [MisdirectedRequest] as const

/** Routes with a body can also meet the body limit. */
const guardedWithBody = [MisdirectedRequest, PayloadTooLarge] as const

export const HealthGroup = HttpApiGroup.make("health")
  .add(HttpApiEndpoint.get("health", "/health", { success: Health, error: guarded }))
  .annotate(OpenApi.Description, "Liveness; needs no token.")

export const SkillsGroup = HttpApiGroup.make("skills")
  .add(
    HttpApiEndpoint.get("list", "/skills", { success: LoadReport, error: guarded }).annotate(
      OpenApi.Description,
      "Loads the server's skill roots and returns the full load report: skills, dropped documents, ignored autoInject blocks, shadowed names and warnings."
    ),
    HttpApiEndpoint.post("arm", "/skills/arm", {
      payload: ArmRequest,
      success: Schema.Array(Armed),
      error: guardedWithBody
    }).annotate(OpenApi.Description, "The skills that arm for a prompt (and a page URL and file paths), in load order.")
  )
  .middleware(Authorization)
  .annotate(OpenApi.Description, "Skill discovery (@armory/skill-loader) and arming (@armory/skill-arming).")

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
 * carry the Schema's reasons.
 */
export const Api = HttpApi.make("armory")
  .add(HealthGroup)
  .add(SkillsGroup)
  .add(CapabilitiesGroup)
  .add(CodemodeGroup)
  .middleware(HttpApiMiddleware.ProblemDetails)
  .annotate(OpenApi.Title, "Armory HTTP API")
  .annotate(OpenApi.Version, API_VERSION)
  .annotate(
    OpenApi.Description,
    "The local HTTP API of `armory serve`. The committed openapi.json and the generated fetch client are " +
      `derived from the contract in @armory/client's src/Api.ts: regenerate them with \`${REGENERATE_COMMAND}\`, never by hand.`
  )
