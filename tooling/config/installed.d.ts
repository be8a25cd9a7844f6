export interface InstalledPackage {
  readonly name: string
  /** Its files' bytes, its own `node_modules` left out. */
  readonly bytes: number
}

/**
 * Installs the Armory package `name` into `project` with npm from packed tarballs (the Armory
 * packages it needs from theirs, everything else from the npm registry), as a user installs it.
 */
export declare const installPackedArmoryPackage: (
  workspaceRoot: string,
  name: string,
  project: string,
  options: { readonly timeoutMs: number }
) => Promise<void>

/** Every package under a `node_modules` directory, nested ones included. */
export declare const installedPackages: (modules: string) => ReadonlyArray<InstalledPackage>

/** How many packages a `node_modules` directory holds, their bytes, and the four largest. */
export declare const installedSize: (modules: string) => {
  readonly packages: number
  readonly bytes: number
  readonly largest: ReadonlyArray<InstalledPackage>
}
