import {
  BrowserUnavailableError,
  type ConcreteProvider,
  type Environment,
  PROVIDERS,
  probeTarget,
  resolveAsideCommand,
  resolveAutoOrder,
  resolveCdpUrl
} from "@armory/browser-runtime"
import { executeEffect, Sandboxes, type ToolTree } from "@armory/codemode"
import { DEFAULT_ROOT, type GoalStoreAccess, type GoalStoreError, type GoalStoreShape, makeFileGoalStore } from "@armory/goal-store"
import { probeBrowserDriver } from "@armory/capability-probe"
import { arm } from "@armory/skill-arming"
import { load, type SkillSource } from "@armory/skill-loader"
import { Effect, Layer, Redacted } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { HttpApi, HttpApiBuilder, HttpApiMiddleware, HttpApiScalar } from "effect/http-api"
import packageJson from "../package.json" with { type: "json" }
import { Api, API_VERSION, Authorization } from "./Api.js"
import { InvalidGlobals, Unauthorized } from "./Errors.js"
import { tokenMatches } from "./internal/BearerToken.js"
import { requestGuard } from "./internal/RequestGuard.js"
import { openApiDocument } from "./OpenApiDocument.js"

export { isLoopbackHost } from "./internal/RequestGuard.js"

/** The default cap on a request body: far above any real request, far below memory trouble. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024

/** Where `channel.send` goes during one `POST /codemode/execute`: the messages are returned with its result. */
export interface HostChannel {
  readonly id: string
  readonly send: (message: { readonly text: string }) => Promise<void>
}

export interface ServerOptions<R> {
  /** The bearer token every route but `/health`, `/docs` and `/openapi.json` requires. */
  readonly token: string
  /** The skill roots `GET /skills` and `POST /skills/arm` load, earlier winning on a name clash. */
  readonly skillSources: ReadonlyArray<SkillSource>
  /** The host's tool tree for one execution, given the channel that execution reports to. */
  readonly hostTools: (channel: HostChannel) => Effect.Effect<ToolTree, never, R>
  /** The globals bound when a request names none. */
  readonly defaultGlobals: ReadonlyArray<string>
  /**
   * Host names accepted in the `Host` header, at the server's port, besides the address it listens on
   * (and `localhost`, when that is loopback): the names clients use for a server bound to all interfaces.
   */
  readonly extraHosts?: ReadonlyArray<string> | undefined
  readonly maxBodyBytes?: number | undefined
  /** The goals directory of the `goals` routes (default `.armory/goals` under the working directory). */
  readonly goalsRoot?: string | undefined
  /**
   * Opens the session a `goals` request names (no id: the default session). Default: the file
   * store under `goalsRoot`. A database-backed store passes one built on a pool it shares across
   * requests (and closes when the server's scope ends).
   */
  readonly goalStore?: GoalStoreFactory | undefined
  /**
   * Who operates the `goals` routes. Only with one does a request's `force` take effect (changing a
   * goal that is already complete, recorded with this name; it never opens the gate); without one,
   * the default, `force` is refused with `ForceNotAllowed` (403), since whatever calls the API may be
   * a model.
   */
  readonly goalOperator?: string | undefined
  /** The environment the browser providers' endpoints are read from (default `process.env`). */
  readonly browserEnv?: Environment | undefined
  /** The platform that decides the browser auto order (default `process.platform`). */
  readonly platform?: NodeJS.Platform | undefined
  /** The version `/health` reports: the host's own (`armory serve` passes the CLI's), default this package's. */
  readonly version?: string | undefined
}

/** Opens one session of a goal store, per request, with the access the server grants (an operator, or none). */
export type GoalStoreFactory = (sessionId: string | undefined, access: GoalStoreAccess) => Effect.Effect<GoalStoreShape, GoalStoreError>

/** The file store under `root`: what the `goals` routes use unless told otherwise. */
export const fileGoalStoreFactory =
  (root: string): GoalStoreFactory =>
  (sessionId, access) =>
    // The server's event loop answers other requests while a write commits.
    makeFileGoalStore({ root, sessionId, offloadFsync: true, ...access })

/** The id of the channel of an execution over HTTP. */
export const HTTP_CHANNEL_ID = "armory-serve"

const authorizationLayer = (token: string) =>
  Layer.succeed(Authorization, {
    bearer: (httpEffect, { credential }) =>
      tokenMatches(token, Redacted.value(credential))
        ? httpEffect
        : Effect.fail(new Unauthorized({ message: "a valid bearer token is required (Authorization: Bearer <token>)" }))
  })

const healthLayer = (version: string) =>
  HttpApiBuilder.group(Api, "health", (handlers) =>
    handlers.handle("health", () => Effect.succeed({ status: "ok" as const, version, api: API_VERSION }))
  )

const skillsLayer = (sources: ReadonlyArray<SkillSource>) =>
  HttpApiBuilder.group(Api, "skills", (handlers) =>
    handlers
      .handle("list", () => load(sources))
      .handle("arm", ({ payload }) =>
        load(sources).pipe(
          Effect.map((report) => arm({ skills: report.skills, prompt: payload.prompt, url: payload.url, paths: payload.paths }))
        )
      )
  )

/**
 * Each request opens its session of the store: for files, opening validates them and repairs a
 * crashed write, and the per-session file lock (not this process) serialises writers; a database
 * store orders writers by sequence number. Either way requests, the CLI and other servers can share
 * the store.
 */
const goalsLayer = (openStore: GoalStoreFactory, access: GoalStoreAccess) => {
  const withStore =
    (sessionId: string | undefined) =>
    <A>(operation: (store: GoalStoreShape) => Effect.Effect<A, GoalStoreError>) =>
      openStore(sessionId, access).pipe(Effect.flatMap(operation))
  return HttpApiBuilder.group(Api, "goals", (handlers) =>
    handlers
      .handle("status", ({ query }) => withStore(query.sessionId)((store) => store.status()))
      .handle("snapshot", ({ query }) =>
        withStore(query.sessionId)((store) => Effect.map(store.snapshot(), (snapshot) => ({ snapshot })))
      )
      .handle("sessions", ({ query }) => withStore(query.sessionId)((store) => store.sessions()))
      .handle("set", ({ query, payload }) => withStore(query.sessionId)((store) => store.set(payload)))
      .handle("addCriterion", ({ query, payload }) => withStore(query.sessionId)((store) => store.addCriterion(payload)))
      .handle("addEvidence", ({ query, payload }) => withStore(query.sessionId)((store) => store.addEvidence(payload)))
      .handle("setCriterionStatus", ({ query, payload }) =>
        withStore(query.sessionId)((store) => store.setCriterionStatus(payload))
      )
      .handle("steer", ({ query, payload }) => withStore(query.sessionId)((store) => store.steer(payload)))
      .handle("checkpoint", ({ query, payload }) => withStore(query.sessionId)((store) => store.checkpoint(payload)))
      .handle("addBlocker", ({ query, payload }) => withStore(query.sessionId)((store) => store.addBlocker(payload)))
      .handle("resolveBlocker", ({ query, payload }) => withStore(query.sessionId)((store) => store.resolveBlocker(payload)))
      .handle("setGoalStatus", ({ query, payload }) => withStore(query.sessionId)((store) => store.setGoalStatus(payload)))
      .handle("complete", ({ query, payload }) => withStore(query.sessionId)((store) => store.complete(payload)))
  )
}

/** A provider's probe as the API reports it: the runtime's own typed error when it is unavailable. */
const probeProvider = (provider: ConcreteProvider, env: Environment) => {
  const endpoint = provider === PROVIDERS.ASIDE ? resolveAsideCommand({ env }) : resolveCdpUrl(provider, { env })
  return Effect.promise(() =>
    probeTarget({ provider, endpoint, timeoutMs: 2000, env }).then(
      () => ({ provider, endpoint, status: "available" as const, error: null }),
      (error: unknown) => ({
        provider,
        endpoint,
        status: "unavailable" as const,
        error:
          error instanceof BrowserUnavailableError
            ? error
            : new BrowserUnavailableError({
                provider,
                endpoint,
                reason: error instanceof Error ? error.message : String(error),
                attempts: []
              })
      })
    )
  )
}

const browserLayer = (platform: NodeJS.Platform, env: Environment) =>
  HttpApiBuilder.group(Api, "browser", (handlers) =>
    handlers.handle("providers", () => {
      const order = resolveAutoOrder(platform)
      return Effect.forEach(order, (provider) => probeProvider(provider, env), { concurrency: "unbounded" }).pipe(
        Effect.map((providers) => ({ platform, order, providers }))
      )
    })
  )

const capabilitiesLayer = HttpApiBuilder.group(Api, "capabilities", (handlers) =>
  handlers.handle("probe", () => Effect.promise(() => probeBrowserDriver()))
)

const codemodeLayer = <R>(options: ServerOptions<R>) =>
  HttpApiBuilder.group(Api, "codemode", (handlers) =>
    handlers.handle("execute", ({ payload }) =>
      Effect.gen(function* () {
        const messages: Array<string> = []
        const channel: HostChannel = {
          id: HTTP_CHANNEL_ID,
          send: async ({ text }) => {
            messages.push(text)
          }
        }
        const tools = yield* options.hostTools(channel)
        const result = yield* executeEffect(payload.code, {
          tools,
          globals: payload.globals ?? options.defaultGlobals,
          ...(payload.timeoutMs === undefined ? {} : { timeoutMs: payload.timeoutMs })
        }).pipe(
          Effect.catchTags({
            InvalidGlobalsError: (error) => Effect.fail(new InvalidGlobals({ message: error.message, name: error.name, rule: error.rule })),
            // The request's own limits are checked by its Schema; any other is the server's mistake.
            InvalidLimitError: (error) => Effect.die(error)
          })
        )
        return { ...result, channel: { id: channel.id, messages: [...messages] } }
      })
    )
  ).pipe(Layer.provide(Sandboxes.layer()))

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
 * The Armory HTTP API as routes on an `HttpServer`: the contract's handlers, the bearer check, the
 * `Host` and body-size guards, `/openapi.json` (the committed document) and `/docs` (the Scalar
 * reference with its script embedded: no CDN, works offline). No CORS headers are ever sent, so a
 * browser page on another origin cannot read a response.
 */
export const serverLayer = <R>(options: ServerOptions<R>) =>
  HttpRouter.serve(
    Layer.mergeAll(
      HttpApiBuilder.layer(Api).pipe(
        Layer.provide([
          healthLayer(options.version ?? packageJson.version),
          skillsLayer(options.skillSources),
          goalsLayer(
            options.goalStore ?? fileGoalStoreFactory(options.goalsRoot ?? DEFAULT_ROOT),
            options.goalOperator === undefined ? {} : { operator: options.goalOperator }
          ),
          capabilitiesLayer,
          browserLayer(options.platform ?? process.platform, options.browserEnv ?? process.env),
          codemodeLayer(options)
        ]),
        Layer.provide([authorizationLayer(options.token), HttpApiMiddleware.layerProblemDetails({ includeDetails: true })])
      ),
      openApiRoute,
      HttpApiScalar.layer(Api, { path: "/docs", scalar: { withDefaultFonts: false } }),
      requestGuard({
        extraHosts: options.extraHosts ?? [],
        routes: routeMethods(),
        maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
      })
    ),
    // Routes match only as written: no case folding, trailing slash or doubled slash (see `isCanonicalPath`).
    { disableLogger: true, disableListenLog: true, routerConfig: { caseSensitive: true, ignoreTrailingSlash: false, ignoreDuplicateSlashes: false } }
  )
