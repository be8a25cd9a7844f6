import { Context } from "effect"

/**
 * The operator a replayed command runs as. `importLedger` sets it to the one a forced event names, so
 * that the store records the same `forcedBy` whoever imports; nothing else sets it, and only code
 * running Effects inside this package can, never a surface a model reaches.
 */
export const ReplayOperator = Context.Reference<string | undefined>("@armory/goal-store/ReplayOperator", {
  defaultValue: () => undefined
})
