import { Api } from "@armory/api"
import type { Effect } from "effect"
import { type HttpClient, HttpClient as Client, HttpClientRequest } from "effect/http"
import { HttpApiClient } from "effect/http-api"

export interface ArmoryClientOptions {
  /** Where `armory serve` listens, e.g. `http://127.0.0.1:4318`. */
  readonly baseUrl: string
  /** The server's bearer token; only `/health` answers without it. */
  readonly token?: string | undefined
}

/** The Effect client of the Armory HTTP API: one method per endpoint, grouped like the API. */
export type ArmoryClient = HttpApiClient.ForApi<typeof Api>

/**
 * The Effect client derived from the contract (`HttpApiClient`): one method per endpoint, grouped
 * like the API (`client.skills.arm({ payload })`), failing with the endpoint's typed errors.
 * Needs an `HttpClient` (e.g. `FetchHttpClient.layer`).
 */
export const makeArmoryClient = (options: ArmoryClientOptions): Effect.Effect<ArmoryClient, never, HttpClient.HttpClient> =>
  HttpApiClient.make(Api, {
    baseUrl: options.baseUrl,
    transformClient: (client) =>
      options.token === undefined ? client : Client.mapRequest(client, HttpClientRequest.bearerToken(options.token))
  })
