import { Schema } from "effect"

/**
 * Why a job hands over to a person instead of going on. Each is a boundary the runner never
 * crosses on its own.
 */
export const STOP_CODES = [
  "AUTH_REQUIRED",
  "CAPTCHA_DETECTED",
  "PAYMENT_REQUIRED",
  "ELECTRONIC_SIGNATURE",
  "IRREVERSIBLE_BOUNDARY",
  "BLOCKED",
  "UNAVAILABLE",
  "MANUAL_HANDOFF"
] as const

export type StopCode = (typeof STOP_CODES)[number]

/** What each code means, used as the message when a `stopOn` gives only the code. */
export const STOP_DESCRIPTIONS: Readonly<Record<StopCode, string>> = {
  AUTH_REQUIRED: "the page requires the user to sign in",
  CAPTCHA_DETECTED: "the page shows a CAPTCHA for a person to solve",
  PAYMENT_REQUIRED: "continuing would make a payment",
  ELECTRONIC_SIGNATURE: "continuing would sign electronically on the user's behalf",
  IRREVERSIBLE_BOUNDARY: "continuing would submit something that cannot be undone",
  BLOCKED: "the site blocked or refused the request",
  UNAVAILABLE: "the browser provider is unavailable",
  MANUAL_HANDOFF: "the job hands the page over to the user to continue by hand"
}

/** A typed reason to stop: a code and a message for the person taking over. */
export class StopReason extends Schema.Class<StopReason>("StopReason")({
  code: Schema.Literals(STOP_CODES),
  message: Schema.String
}) {}

/** A stop reason with the code's standard message, or `message` when given. */
export const stopReason = (code: StopCode, message?: string): StopReason =>
  new StopReason({ code, message: message ?? STOP_DESCRIPTIONS[code] })

export const isStopCode = (value: unknown): value is StopCode =>
  typeof value === "string" && (STOP_CODES as ReadonlyArray<string>).includes(value)
