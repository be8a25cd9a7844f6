import type { CdpChromium } from "../CdpBrowser.js"
import { PlaywrightUnavailableError } from "../RuntimeErrors.js"
import { describeFailure } from "./failure.js"

/**
 * Loads playwright-core's `chromium` on first use so that hosts without the optional peer can
 * import this package; Node's module cache makes repeated calls cheap, so nothing is cached here.
 */
export const loadChromium = async (): Promise<CdpChromium> => {
  try {
    const playwright = await import("playwright-core")
    return playwright.chromium
  } catch (error) {
    throw new PlaywrightUnavailableError({ reason: describeFailure(error) })
  }
}
