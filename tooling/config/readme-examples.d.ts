export interface ReadmeExampleOptions {
  /** Files written into the consumer project before the examples run, by relative path. */
  readonly files?: Readonly<Record<string, string>>
  /** Variables added to the examples' environment. */
  readonly env?: Readonly<Record<string, string>>
  /** Third-party packages the examples use without importing them (a server they start), installed at the package's versions. */
  readonly dependencies?: ReadonlyArray<string>
}

/**
 * Registers vitest tests that install the packed package in a project outside the monorepo,
 * type-check each ```ts block of its README there and run it twice, checking its `// prints:` comments.
 */
export declare const describeReadmeExamples: (packageDir: string, options?: ReadmeExampleOptions) => void

/**
 * Packs `names` and every Armory package they need at run time into `destination` the way they will
 * be published: package name → tarball path.
 */
export declare const packArmoryPackages: (workspaceRoot: string, names: ReadonlyArray<string>, destination: string) => Promise<Readonly<Record<string, string>>>
