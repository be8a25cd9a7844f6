import { Api, API_VERSION, Authorization, Goals, InvalidGlobals, LoadReport, openApiDocument, Unauthorized } from "@armory/api"
import {
  collectingChannel,
  type GoalMutationName,
  type GoalStoreError,
  type GoalStoreShape,
  Host,
  type HostShape,
  type InputOf,
  type OutputOf,
  mutationMethods,
  probe,
  probeProviders,
  runMutation,
  tokenMatcher
} from "@armory/host"
import { Effect, Exit, Layer, Redacted, Schema } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { HttpApi, HttpApiBuilder, HttpApiMiddleware, HttpApiScalar } from "effect/http-api"
import packageJson from "../package.json" with { type: "json" }
import { apiGoalError } from "./internal/GoalErrors.js"
import { bodyLimit, requestGuard } from "./internal/RequestGuard.js"
import { requestLog } from "./internal/RequestLog.js"

/** The default cap on a request body: far above any real request, far below memory trouble. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024

/** The id of the channel of an execution over HTTP. */
export const HTTP_CHANNEL_ID = "armory-serve"

export interface ServerOptions {
  /** The bearer token every route but `/health`, `/docs` and `/openapi.json` requires. */
  readonly token: string
  /**
   * Host names accepted in the `Host` header, at the server's port, besides the address it listens on
   * (and `localhost`, when that is loopback): the names clients use for a server bound to all interfaces.
   */
  readonly extraHosts?: ReadonlyArray<string> | undefined
  readonly maxBodyBytes?: number | undefined
  /** The globals bound when a request names none (default: every global the host offers). */
  readonly defaultGlobals?: ReadonlyArray<string> | undefined
  /** The environment the browser providers' endpoints are read from (default `process.env`). */
  readonly browserEnv?: NodeJS.ProcessEnv | undefined
  /** The platform that decides the browser auto order (default `process.platform`). */
  readonly platform?: NodeJS.Platform | undefined
  /** The version `/health` reports: the host's own (`armory serve` passes the CLI's), default this package's. */
  readonly version?: string | undefined
}

const authorizationLayer = (token: string) => {
  const matches = tokenMatcher(token)
  return Layer.succeed(Authorization, {
    bearer: (httpEffect, { credential }) =>
      matches(Redacted.value(credential))
        ? httpEffect
        : Effect.fail(new Unauthorized({ message: "a valid bearer token is required (Authorization: Bearer <token>)" }))
  })
}

const healthLayer = (version: string) =>
  HttpApiBuilder.group(Api, "health", (handlers) =>
    handlers.handle("health", () => Effect.succeed({ status: "ok" as const, version, api: API_VERSION }))
  )

/**
 * A JSON answer rendered once per object that decides it: what `GET /skills` and `GET /goals/status`
 * would otherwise encode again on every request though nothing changed.
 */
const renderedOncePer = <A>(schema: Schema.Codec<A, unknown>) => {
  const encode = Schema.encodeSync(schema)
  const rendered = new WeakMap<object, HttpServerResponse.HttpServerResponse>()
  const render = (value: A) => HttpServerResponse.text(JSON.stringify(encode(value)), { contentType: "application/json" })
  return (key: object | null, value: A): HttpServerResponse.HttpServerResponse => {
    if (key === null) return render(value)
    const known = rendered.get(key)
    if (known !== undefined) return known
    const response = render(value)
    rendered.set(key, response)
    return response
  }
}

/** `GET /skills` answers the catalog's report rendered once per load. */
const skillsLayer = HttpApiBuilder.group(Api, "skills", (handlers) =>
  Effect.map(Effect.service(Host), (host) => {
    const render = renderedOncePer(LoadReport)
    return handlers
      .handle("list", () => Effect.map(host.skills.report, (report) => render(report, report)))
      .handle("arm", ({ payload }) => host.skills.arm(payload))
  })
)

/** The route of a goal mutation: the session in its query, the store's input as its body. */
type MutationHandler<N extends GoalMutationName> = (request: {
  readonly query: { readonly sessionId?: string | undefined }
  readonly payload: InputOf<N>
}) => Effect.Effect<OutputOf<N>, Goals.GoalsError>

type MutationHandlers = { readonly [N in GoalMutationName]: MutationHandler<N> }

/**
 * The `goals` routes are the operator surface: they use the host's operator sessions, each opened
 * once and kept (the per-session file lock, not this process, serialises writers, so requests, the
 * CLI and other servers share the store). The store's refusals become the contract's. A forced
 * mutation, an operator's action, is logged at `warn` with its outcome.
 */
const goalsLayer = HttpApiBuilder.group(Api, "goals", (handlers) =>
  Effect.map(Effect.service(Host), (host: HostShape) => {
    const sessions = host.operatorGoals
    // The gate is a function of the goal, and the store answers the same goal object until an event changes it.
    const renderStatus = renderedOncePer(Goals.GoalStatusReport)
    const run =
      (sessionId: string | undefined) =>
      <A>(operation: (store: GoalStoreShape) => Effect.Effect<A, GoalStoreError>) =>
        sessions.use(sessionId, operation).pipe(Effect.mapError((error) => apiGoalError(sessions.root, error)))
    const mutate =
      <N extends GoalMutationName>(name: N): MutationHandler<N> =>
      ({ query, payload }) => {
        const applied = run(query.sessionId)((store) => runMutation(store, name, payload))
        const forced = (payload as { readonly force?: boolean | undefined }).force === true
        return forced
          ? applied.pipe(
              Effect.onExit((exit) =>
                Effect.logWarning("operator action", {
                  operation: name,
                  sessionId: query.sessionId ?? null,
                  operator: sessions.operator ?? null,
                  outcome: Exit.isSuccess(exit) ? "done" : Exit.isFailure(exit) ? "refused" : "interrupted"
                })
              )
            )
          : applied
      }
    // TypeScript cannot follow a generic name to its own entry of `MutationHandlers`, so each handler is asserted to it here.
    const mutations = mutationMethods<MutationHandlers>(<N extends GoalMutationName>(name: N) => mutate(name) as MutationHandlers[N])
    return handlers.handleAll({
      ...mutations,
      status: ({ query }) => Effect.map(run(query.sessionId)((store) => store.status()), (report) => renderStatus(report.goal, report)),
      snapshot: ({ query }) => run(query.sessionId)((store) => Effect.map(store.snapshot(), (snapshot) => ({ snapshot }))),
      sessions: ({ query }) => run(query.sessionId)((store) => store.sessions())
    })
  })
)

const browserLayer = (platform: NodeJS.Platform, env: NodeJS.ProcessEnv) =>
  HttpApiBuilder.group(Api, "browser", (handlers) =>
    handlers.handle("providers", () => Effect.promise(() => probeProviders({ platform, env })))
  )

const capabilitiesLayer = HttpApiBuilder.group(Api, "capabilities", (handlers) =>
  handlers.handle("probe", ({ query }) => Effect.promise(() => probe(query.driver)))
)

const codemodeLayer = (defaultGlobals: ReadonlyArray<string> | undefined) =>
  HttpApiBuilder.group(Api, "codemode", (handlers) =>
    Effect.map(Effect.service(Host), (host) =>
      handlers.handle("execute", ({ payload }) =>
        Effect.gen(function* () {
          const channel = collectingChannel(HTTP_CHANNEL_ID)
          const result = yield* host
            .execute(payload.code, {
              channel,
              globals: payload.globals ?? defaultGlobals,
              ...(payload.timeoutMs === undefined ? {} : { timeoutMs: payload.timeoutMs })
            })
            .pipe(
              Effect.catchTags({
                InvalidGlobalsError: (error) => Effect.fail(new InvalidGlobals({ message: error.message, name: error.name, rule: error.rule })),
                // The request's own limits are checked by its Schema; any other is the server's mistake.
                InvalidLimitError: (error) => Effect.die(error)
              })
            )
          return { ...result, channel: { id: channel.id, messages: [...channel.messages] } }
        })
      )
    )
  )

const openApiRoute = HttpRouter.add("GET", "/openapi.json", HttpServerResponse.jsonUnsafe(openApiDocument()))

/** Every route the server has, with the methods it takes: the contract's endpoints, the document and its reference page. */
const routeMethods = (): ReadonlyMap<string, ReadonlyArray<string>> => {
  const methods = new Map<string, Array<string>>([
    ["/openapi.json", ["GET"]],
    ["/docs", ["GET"]]
  ])
  HttpApi.reflect(Api, {
    onGroup: () => undefined,
    onEndpoint: ({ endpoint }) => {
      methods.set(endpoint.path, [...(methods.get(endpoint.path) ?? []), endpoint.method])
    }
  })
  return methods
}

/**
 * The Armory HTTP API (`@armory/api`) as routes on an `HttpServer`, over the `Host` of
 * `@armory/host`: the contract's handlers, the bearer check, the `Host` and body-size guards,
 * `/openapi.json` (the committed document) and `/docs` (the Scalar reference with its script
 * embedded: no CDN, works offline). No CORS headers are ever sent, so a browser page on another
 * origin cannot read a response.
 */
export const serverLayer = (options: ServerOptions) =>
  HttpRouter.serve(
    Layer.mergeAll(
      HttpApiBuilder.layer(Api).pipe(
        Layer.provide([
          healthLayer(options.version ?? packageJson.version),
          skillsLayer,
          goalsLayer,
          capabilitiesLayer,
          browserLayer(options.platform ?? process.platform, options.browserEnv ?? process.env),
          codemodeLayer(options.defaultGlobals)
        ]),
        Layer.provide([authorizationLayer(options.token), HttpApiMiddleware.layerProblemDetails({ includeDetails: true })])
      ),
      openApiRoute,
      HttpApiScalar.layer(Api, { path: "/docs", scalar: { withDefaultFonts: false } }),
      requestLog,
      requestGuard({
        extraHosts: options.extraHosts ?? [],
        routes: routeMethods(),
        maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
      })
    ),
    // Routes match only as written: no case folding, trailing slash or doubled slash (see `isCanonicalPath`).
    { disableLogger: true, disableListenLog: true, routerConfig: { caseSensitive: true, ignoreTrailingSlash: false, ignoreDuplicateSlashes: false } }
  ).pipe(Layer.provide(bodyLimit(options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES)))
