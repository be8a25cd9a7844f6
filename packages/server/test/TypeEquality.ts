/**
 * `true` exactly when `A` and `B` are the same type (mutual assignability is not enough: it lets
 * `readonly`, optionality and `any` slip through).
 */
export type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false

/** Compiles only when its argument is `true`: the build breaks where two types drift apart. */
export type Assert<T extends true> = T
