import {
  BLOCKED_BROWSER_DRIVER_CLEANUP_FAILED,
  BLOCKED_BROWSER_DRIVER_IDENTITY_UNVERIFIED,
  BLOCKED_BROWSER_DRIVER_UNAVAILABLE,
  type BrowserDriverBlocker
} from "@armory/capability-probe"
import type * as CapabilityProbe from "@armory/capability-probe"
import { Schema } from "effect"
import type { Assert, Equals } from "./internal/TypeEquality.js"

/** The drivers `GET /capabilities/probe` knows, by the name a caller passes as `driver`. */
export const ProbeDriver = Schema.Literals(["agent-browser"]).annotate({ identifier: "ProbeDriver" })
export type ProbeDriver = typeof ProbeDriver.Type

/** The answer of a browser-driver probe (`@armory/capability-probe`; pinned like {@link Armed}). */
export const ProbeResult = Schema.Struct({
  status: Schema.Literals(["available", "unavailable", "unverified-identity"]),
  command: Schema.NullOr(Schema.String),
  version: Schema.NullOr(Schema.String),
  blocker: Schema.NullOr(
    Schema.Literals([
      BLOCKED_BROWSER_DRIVER_UNAVAILABLE,
      BLOCKED_BROWSER_DRIVER_IDENTITY_UNVERIFIED,
      BLOCKED_BROWSER_DRIVER_CLEANUP_FAILED
    ])
  ),
  detail: Schema.String
}).annotate({ identifier: "ProbeResult" })

export type ProbeResultMatchesPackage = Assert<
  Equals<typeof ProbeResult.Type, CapabilityProbe.ProbeResult<BrowserDriverBlocker>>
>
