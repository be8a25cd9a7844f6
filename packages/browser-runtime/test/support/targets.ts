/** A page target as Chromium's `/json/list` lists it. */
export interface PageTarget {
  readonly id: string
  readonly type: string
  readonly url: string
  readonly webSocketDebuggerUrl: string
}

/** The page targets the browser lists now, read over its HTTP endpoint (not through the adapter). */
export const pageTargets = async (cdpUrl: string): Promise<ReadonlyArray<PageTarget>> => {
  const response = await fetch(`${cdpUrl}/json/list`)
  return ((await response.json()) as ReadonlyArray<PageTarget>).filter((target) => target.type === "page")
}
