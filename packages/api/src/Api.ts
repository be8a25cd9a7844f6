import { Schema } from "effect"
import {
  HttpApi,
  HttpApiEndpoint,
  HttpApiGroup,
  HttpApiMiddleware,
  HttpApiSecurity,
  OpenApi
} from "effect/http-api"
import { GOAL_OPERATION_SCHEMAS } from "@armory/goal-store/schema"
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

type GoalRoutes = typeof Goals.GOAL_ROUTES
type GoalOperations = typeof GOAL_OPERATION_SCHEMAS
type GoalMutationName = { readonly [N in keyof GoalRoutes]: GoalRoutes[N] extends { readonly payload: unknown } ? N : never }[keyof GoalRoutes]
type GoalReadName = Exclude<keyof GoalRoutes, GoalMutationName>

const postGoal = <const N extends string, const P extends `/${string}`, I extends Schema.Top, O extends Schema.Top>(
  name: N,
  path: P,
  description: string,
  payload: I,
  success: O
) => HttpApiEndpoint.post(name, path, { ...goalWrite, payload, success }).annotate(OpenApi.Description, description)

const getGoal = <const N extends string, const P extends `/${string}`, O extends Schema.Top>(name: N, path: P, description: string, success: O) =>
  HttpApiEndpoint.get(name, path, { ...goalRead, success }).annotate(OpenApi.Description, description)

type ReadSuccess<N extends GoalReadName> = GoalRoutes[N] extends { readonly success: infer S extends Schema.Top } ? S : GoalOperations[N]["output"]

/** Each goal operation's endpoint, typed by its name: its route's path and input, the store's output. */
type GoalEndpoint =
  | { readonly [N in GoalMutationName]: ReturnType<typeof postGoal<N, GoalRoutes[N]["path"], GoalRoutes[N]["payload"], GoalOperations[N]["output"]>> }[GoalMutationName]
  | { readonly [N in GoalReadName]: ReturnType<typeof getGoal<N, GoalRoutes[N]["path"], ReadSuccess<N>>> }[GoalReadName]

/**
 * One endpoint per entry of `GOAL_ROUTES`, in its order. The array is built key by key, which
 * TypeScript cannot type by its keys, so it is asserted here, once, as the endpoints `GoalEndpoint` names.
 */
const goalEndpoints = (Object.keys(Goals.GOAL_ROUTES) as ReadonlyArray<keyof GoalRoutes>).map((name) => {
  const route: Goals.GoalRoute = Goals.GOAL_ROUTES[name]
  const output: Schema.Top = GOAL_OPERATION_SCHEMAS[name].output
  return route.payload === undefined
    ? getGoal(name, route.path, route.description, route.success ?? output)
    : postGoal(name, route.path, route.description, route.payload, output)
}) as unknown as readonly [GoalEndpoint, ...ReadonlyArray<GoalEndpoint>]

export const GoalsGroup = HttpApiGroup.make("goals")
  .add(...goalEndpoints)
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
