import { Schema } from "effect"

/** The drivers `GET /capabilities/probe` knows, by the name a caller passes as `driver`. */
export const ProbeDriver = Schema.Literals(["agent-browser"]).annotate({ identifier: "ProbeDriver" })
export type ProbeDriver = typeof ProbeDriver.Type

/** The answer of a browser-driver probe (`@armory/capability-probe`'s `ProbeResult<BrowserDriverBlocker>`; mirrored like `Armed`). */
export const ProbeResult = Schema.Struct({
  status: Schema.Literals(["available", "unavailable", "unverified-identity"]),
  command: Schema.NullOr(Schema.String),
  version: Schema.NullOr(Schema.String),
  blocker: Schema.NullOr(
    Schema.Literals([
      "BLOCKED_BROWSER_DRIVER_UNAVAILABLE",
      "BLOCKED_BROWSER_DRIVER_IDENTITY_UNVERIFIED",
      "BLOCKED_BROWSER_DRIVER_CLEANUP_FAILED"
    ])
  ),
  detail: Schema.String
}).annotate({ identifier: "ProbeResult" })
export type ProbeResult = typeof ProbeResult.Type
