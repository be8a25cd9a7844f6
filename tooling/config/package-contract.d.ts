/** Registers vitest tests that check a published package against the workspace conventions. */
export declare const describePackageContract: (packageDir: string) => void
