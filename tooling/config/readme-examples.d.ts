export interface ReadmeExampleOptions {
  /** Files written into the consumer project before the examples run, by relative path. */
  readonly files?: Readonly<Record<string, string>>
  /** Variables added to the examples' environment. */
  readonly env?: Readonly<Record<string, string>>
  /** `armory serve` started beside the examples with these arguments and bearer token; its URL is their `ARMORY_URL`. */
  readonly armoryServe?: { readonly args: ReadonlyArray<string>; readonly token: string }
}

/**
 * Registers vitest tests that install exactly what the README's install lines name in a project
 * outside the monorepo (Armory packages from their packed tarballs), type-check each ```ts block of
 * its README there and run it twice, checking its `// prints:` comments.
 */
export declare const describeReadmeExamples: (packageDir: string, options?: ReadmeExampleOptions) => void

/**
 * Packs `names` and every Armory package they need at run time into `destination` the way they will
 * be published: package name → tarball path.
 */
export declare const packArmoryPackages: (workspaceRoot: string, names: ReadonlyArray<string>, destination: string) => Promise<Readonly<Record<string, string>>>

/** The packages each install line (`npm install …`, `pnpm add …`) of a README's shell blocks names, in order. */
export declare const installLines: (readme: string) => ReadonlyArray<ReadonlyArray<string>>

/**
 * For each example, the first install line that, with the lines before it, installs every package the
 * example loads (`stage`, or -1 with the `missing` packages when no line does).
 */
export declare const assignExamples: (
  lines: ReadonlyArray<ReadonlyArray<string>>,
  blocks: ReadonlyArray<string>
) => ReadonlyArray<{ readonly stage: number; readonly missing: ReadonlyArray<string> }>
