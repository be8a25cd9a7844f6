import createFetchClient, { type Client } from "openapi-fetch"
import type { paths } from "./generated/openapi.js"

export type { components, operations, paths } from "./generated/openapi.js"

/** The typed fetch client of the Armory HTTP API, for callers without Effect. */
export type ArmoryFetchClient = Client<paths>

export interface CreateClientOptions {
  /** Where `armory serve` listens, e.g. `http://127.0.0.1:4318`. */
  readonly baseUrl: string
  /** The server's bearer token; only `/health` answers without it. */
  readonly token?: string | undefined
  /** The fetch implementation to use (the global one by default). */
  readonly fetch?: typeof globalThis.fetch | undefined
}

/**
 * A fetch client typed by the generated OpenAPI declarations (openapi-fetch): every call returns
 * `{ data }` on success or `{ error }` with the typed error body, never throwing for an HTTP status.
 */
export const createClient = (options: CreateClientOptions): ArmoryFetchClient =>
  createFetchClient<paths>({
    baseUrl: options.baseUrl,
    headers: options.token === undefined ? {} : { authorization: `Bearer ${options.token}` },
    ...(options.fetch === undefined ? {} : { fetch: options.fetch })
  })
