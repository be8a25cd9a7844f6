import { Schema } from "effect"

/**
 * The errors of the HTTP API that no package owns. Each carries its status, so the server renders
 * it, the OpenAPI document lists it and both clients decode it.
 */

/** The bearer token is missing or wrong (every route but `/health`, `/docs` and `/openapi.json`). */
export class Unauthorized extends Schema.TaggedError<Unauthorized>()(
  "Unauthorized",
  { message: Schema.String },
  { httpApiStatus: 401 }
) {}

/** The `Host` header does not name this loopback server: a DNS-rebinding attempt or a misdirected request. */
export class MisdirectedRequest extends Schema.TaggedError<MisdirectedRequest>()(
  "MisdirectedRequest",
  { message: Schema.String, host: Schema.String },
  { httpApiStatus: 421 }
) {}

/** No route has this path, as written (another spelling of a route's path, `//skills` or `/SKILLS`, is not it). */
export class RouteNotFound extends Schema.TaggedError<RouteNotFound>()(
  "RouteNotFound",
  { message: Schema.String, method: Schema.String, path: Schema.String },
  { httpApiStatus: 404 }
) {}

/** The path is a route's, the method is not one it takes; `allow` (and the `Allow` header) lists those. */
export class MethodNotAllowed extends Schema.TaggedError<MethodNotAllowed>()(
  "MethodNotAllowed",
  { message: Schema.String, method: Schema.String, path: Schema.String, allow: Schema.Array(Schema.String) },
  { httpApiStatus: 405 }
) {}

/** The request body is over the server's limit; it was not read. */
export class PayloadTooLarge extends Schema.TaggedError<PayloadTooLarge>()(
  "PayloadTooLarge",
  { message: Schema.String, limitBytes: Schema.Int },
  { httpApiStatus: 413 }
) {}

/** The request body is not JSON by its `Content-Type` (or has none); it was not read. */
export class UnsupportedMediaType extends Schema.TaggedError<UnsupportedMediaType>()(
  "UnsupportedMediaType",
  { message: Schema.String, contentType: Schema.NullOr(Schema.String), accepted: Schema.Array(Schema.String) },
  { httpApiStatus: 415 }
) {}

/** `globals` named something code mode refuses to bind (the rule says why). */
export class InvalidGlobals extends Schema.TaggedError<InvalidGlobals>()(
  "InvalidGlobals",
  { message: Schema.String, name: Schema.String, rule: Schema.String },
  { httpApiStatus: 422 }
) {}
