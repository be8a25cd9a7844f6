import type { Effect } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import { HttpApiClient } from "effect/http-api"
import { Api } from "./Api.js"

export interface ArmoryClientOptions {
  /** Where `armory serve` listens, e.g. `http://127.0.0.1:4318`. */
  readonly baseUrl: string
  /** The server's bearer token; only `/health` answers without it. */
  readonly token?: string | undefined
}

/**
 * The Effect client derived from the contract (`HttpApiClient`): one method per endpoint, grouped
 * like the API (`client.skills.arm({ payload })`), failing with the endpoint's typed errors.
 * Needs an `HttpClient` (e.g. `FetchHttpClient.layer`).
 */
export const makeArmoryClient = (options: ArmoryClientOptions) =>
  HttpApiClient.make(Api, {
    baseUrl: options.baseUrl,
    transformClient: (client) =>
      options.token === undefined
        ? client
        : HttpClient.mapRequest(client, HttpClientRequest.bearerToken(options.token))
  })

/** The client {@link makeArmoryClient} builds. */
export type ArmoryClient = Effect.Success<ReturnType<typeof makeArmoryClient>>
