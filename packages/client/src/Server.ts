import { executeEffect, type ToolTree } from "@armory/codemode"
import { probeBrowserDriver } from "@armory/capability-probe"
import { arm } from "@armory/skill-arming"
import { load, type SkillSource } from "@armory/skill-loader"
import { Effect, Layer, Redacted } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { HttpApiBuilder, HttpApiMiddleware, HttpApiScalar } from "effect/http-api"
import { Api, API_VERSION, Authorization } from "./Api.js"
import { InvalidGlobals, Unauthorized } from "./Errors.js"
import { tokenMatches } from "./internal/BearerToken.js"
import { LOOPBACK_HOSTS, requestGuard } from "./internal/RequestGuard.js"
import { openApiDocument } from "./OpenApiDocument.js"

export { LOOPBACK_HOSTS } from "./internal/RequestGuard.js"

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
  /** Host names accepted in the `Host` header besides the loopback ones (a non-loopback bind address). */
  readonly extraHosts?: ReadonlyArray<string> | undefined
  readonly maxBodyBytes?: number | undefined
}

/** The id of the channel of an execution over HTTP. */
export const HTTP_CHANNEL_ID = "armory-serve"

const authorizationLayer = (token: string) =>
  Layer.succeed(Authorization, {
    bearer: (httpEffect, { credential }) =>
      tokenMatches(token, Redacted.value(credential))
        ? httpEffect
        : Effect.fail(new Unauthorized({ message: "a valid bearer token is required (Authorization: Bearer <token>)" }))
  })

const healthLayer = HttpApiBuilder.group(Api, "health", (handlers) =>
  handlers.handle("health", () => Effect.succeed({ status: "ok" as const, version: API_VERSION }))
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
          Effect.mapError((error) => new InvalidGlobals({ message: error.message, name: error.name, rule: error.rule }))
        )
        return { ...result, channel: { id: channel.id, messages: [...messages] } }
      })
    )
  )

const openApiRoute = HttpRouter.add("GET", "/openapi.json", HttpServerResponse.jsonUnsafe(openApiDocument()))

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
        Layer.provide([healthLayer, skillsLayer(options.skillSources), capabilitiesLayer, codemodeLayer(options)]),
        Layer.provide([authorizationLayer(options.token), HttpApiMiddleware.layerProblemDetails({ includeDetails: true })])
      ),
      openApiRoute,
      HttpApiScalar.layer(Api, { path: "/docs", scalar: { withDefaultFonts: false } }),
      requestGuard({
        allowedHosts: [...LOOPBACK_HOSTS, ...(options.extraHosts ?? [])],
        maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
      })
    ),
    { disableLogger: true, disableListenLog: true }
  )
