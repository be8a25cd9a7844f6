import type { rawRequest } from "./rawRequest.js"

export interface LoadReport {
  readonly requests: number
  readonly errors: number
  readonly statuses: Record<number, number>
}

/** `concurrency` loops sending `count` requests in total, each counted by status; a non-2xx is an error. */
export const loadLoop = async (options: {
  readonly concurrency: number
  readonly count: number
  readonly request: (index: number) => ReturnType<typeof rawRequest>
}): Promise<LoadReport> => {
  let next = 0
  let errors = 0
  const statuses: Record<number, number> = {}
  const worker = async () => {
    while (next < options.count) {
      const index = next++
      const response = await options.request(index).catch(() => ({ status: 0 }))
      statuses[response.status] = (statuses[response.status] ?? 0) + 1
      if (response.status < 200 || response.status >= 300) errors++
    }
  }
  await Promise.all(Array.from({ length: options.concurrency }, worker))
  return { requests: options.count, errors, statuses }
}
